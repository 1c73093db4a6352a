# no byte at all: an error alone, not among inputs that have stacks
stackcollapse </dev/null
