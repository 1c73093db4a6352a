stackcollapse-otlp --tag-focus version=3 --tag-focus endpoint=list attributes.pb
