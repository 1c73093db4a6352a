# a header followed by a blank line: a sample without frames, then frames
# without a header: most lines are bad, an error (the sample is written)
stackcollapse invalid-perf-with-empty-line-after-event-line.txt
