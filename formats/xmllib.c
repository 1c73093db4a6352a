#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "formats/xmllib.h"

/* Filled once (pthread_once), and only read after. */
static struct fold_libxml lib;
static int ok;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define SYM(name) \
	((*(void **)&lib.name = dlsym(h, "xml" #name)) != NULL)

static void
load(void)
{
	/* the library's name for as long as its interface has been */
	void *h = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h || !(SYM(InitParser) && SYM(CreatePushParserCtxt) &&
	    SYM(CtxtUseOptions) && SYM(ParseChunk) && SYM(StopParser) &&
	    SYM(CtxtGetLastError) && SYM(FreeDoc) && SYM(FreeParserCtxt) &&
	    SYM(SAX2GetLineNumber) && SYM(BufferCreate) &&
	    SYM(BufferContent) && SYM(BufferLength) && SYM(BufferFree) &&
	    SYM(NewTextWriterMemory) && SYM(FreeTextWriter) &&
	    SYM(TextWriterSetIndent) && SYM(TextWriterSetIndentString) &&
	    SYM(TextWriterStartDocument) && SYM(TextWriterEndDocument) &&
	    SYM(TextWriterStartElement) && SYM(TextWriterEndElement) &&
	    SYM(TextWriterWriteAttribute) &&
	    SYM(TextWriterWriteFormatAttribute) &&
	    SYM(TextWriterWriteString))) {
		e = dlerror();
		snprintf(why, sizeof why, "%s", e ? e :
		    "libxml2.so.2 lacks a function");
		return;
	}
	lib.InitParser();
	ok = 1;
}

const struct fold_libxml *
fold_libxml(const char **whyp)
{
	pthread_once(&once, load);
	*whyp = why;
	return ok ? &lib : NULL;
}
