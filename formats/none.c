/* Keeps libformats.a non-empty before any format module exists. */
int fold_formats_none;
