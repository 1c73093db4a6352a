foldmerge --root host=web1 rust.folded --root host=web2 java.folded --root "" dd.folded
