foldfilter --replace '$' "$(printf '%01000d' 0)" deep100.folded
