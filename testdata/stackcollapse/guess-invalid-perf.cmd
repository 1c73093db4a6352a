# a header followed by a blank line: a sample without frames, then frames without a header (warned of)
stackcollapse invalid-perf-with-empty-line-after-event-line.txt
