/*
 * Every format, in the order --list-formats shows them, "folded" (folded
 * stacks, passed through) last: FORMAT(x) names x_id (format.h's
 * format_id) and x_format. One list for the table of ids, which every
 * converter links to say what an input looks like, and the table of
 * descriptors, which only stackcollapse links.
 */
FORMAT(perf)
FORMAT(jfr)
FORMAT(bcc)
FORMAT(pprof)
FORMAT(dtrace)
FORMAT(sample)
FORMAT(chrome)
FORMAT(trace)
FORMAT(speedscope)
FORMAT(firefox)
FORMAT(otlp)
FORMAT(svgread)
FORMAT(vtune)
FORMAT(vsprof)
FORMAT(ghcprof)
FORMAT(folded)
