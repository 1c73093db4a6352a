main;work;leaf 12
