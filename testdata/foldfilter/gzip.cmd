gzip -c app.folded | foldfilter --grep '^sqlite3_step$'
