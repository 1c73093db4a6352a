/*
 * stackcollapse-bcc: turn the stacks printed by eBPF tools (bcc's
 * profile, offcputime, offwaketime, wakeuptime and stackcount,
 * libbpf-tools, bpftrace maps) into folded stacks; the form is detected.
 *
 *	offcputime -p 1234 30 | stackcollapse-bcc |
 *	    flamegraph-svg --colors io --countname us > offcpu.svg
 */
#include "formats/bcc.h"
#include "cmd/util.h"

int
main(int argc, char *argv[])
{
	return cmd_convert(argc, argv, &bcc_format);
}
