stackcollapse-dtrace < stack-ustack.txt
