# bpftrace stacks whose frames lost their indentation (a log collector
# strips it): the lines inside a key that go on neither with ", " nor
# with "]" are its frames
stackcollapse-bcc bpftrace-unindented.txt
stackcollapse bpftrace-unindented.txt
