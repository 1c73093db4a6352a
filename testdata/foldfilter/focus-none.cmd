foldfilter --focus 'no_such_function' --hide '^std::' app.folded
