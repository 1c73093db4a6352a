foldfilter --root-at '^json::parse$' app.folded
