#include <stdio.h>

#include "formats/calltree.h"

void
calltree_say_under(uint64_t under, fold_say_fn *say, void *arg)
{
	char msg[64];

	if (under == 0)
		return;
	snprintf(msg, sizeof msg, "%llu line%s under bad lines dropped",
	    (unsigned long long)under, under == 1 ? "" : "s");
	say(arg, msg);
}
