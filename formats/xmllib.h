/*
 * libxml2, loaded at its first use rather than when a program starts: it
 * brings ICU and the C++ runtime, whose loading and set-up cost 3.8 to 4.3
 * ms and more than 100 page faults of every run of a tool linked with it
 * (stackcollapse, which reads every format and most often no SVG;
 * folddiff, which writes JUnit XML only when asked). The functions of
 * its SAX parser (the SVG reader) and of its writer (the JUnit report)
 * are called through the table fold_libxml returns.
 *
 *	const char *why;
 *	const struct fold_libxml *x = fold_libxml(&why);
 *	if (!x)
 *		return fold_seterr("cannot read SVG: %s", why);
 *	ctxt = x->CreatePushParserCtxt(&sax, r, NULL, 0, name);
 */
#ifndef FORMATS_XMLLIB_H
#define FORMATS_XMLLIB_H

#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlwriter.h>

struct fold_libxml {
	/* the SAX parser */
	__typeof__(xmlInitParser) *InitParser;
	__typeof__(xmlCreatePushParserCtxt) *CreatePushParserCtxt;
	__typeof__(xmlCtxtUseOptions) *CtxtUseOptions;
	__typeof__(xmlParseChunk) *ParseChunk;
	__typeof__(xmlStopParser) *StopParser;
	__typeof__(xmlCtxtGetLastError) *CtxtGetLastError;
	__typeof__(xmlFreeDoc) *FreeDoc;
	__typeof__(xmlFreeParserCtxt) *FreeParserCtxt;
	__typeof__(xmlSAX2GetLineNumber) *SAX2GetLineNumber;
	/* the writer, into a buffer */
	__typeof__(xmlBufferCreate) *BufferCreate;
	__typeof__(xmlBufferContent) *BufferContent;
	__typeof__(xmlBufferLength) *BufferLength;
	__typeof__(xmlBufferFree) *BufferFree;
	__typeof__(xmlNewTextWriterMemory) *NewTextWriterMemory;
	__typeof__(xmlFreeTextWriter) *FreeTextWriter;
	__typeof__(xmlTextWriterSetIndent) *TextWriterSetIndent;
	__typeof__(xmlTextWriterSetIndentString) *TextWriterSetIndentString;
	__typeof__(xmlTextWriterStartDocument) *TextWriterStartDocument;
	__typeof__(xmlTextWriterEndDocument) *TextWriterEndDocument;
	__typeof__(xmlTextWriterStartElement) *TextWriterStartElement;
	__typeof__(xmlTextWriterEndElement) *TextWriterEndElement;
	__typeof__(xmlTextWriterWriteAttribute) *TextWriterWriteAttribute;
	__typeof__(xmlTextWriterWriteFormatAttribute)
	    *TextWriterWriteFormatAttribute;
	__typeof__(xmlTextWriterWriteString) *TextWriterWriteString;
};

/*
 * The library's functions, loaded and its parser initialised once, on
 * any thread; NULL, with *why saying what is missing (the library or one
 * of its functions), when it cannot be loaded.
 */
const struct fold_libxml *fold_libxml(const char **why);

#endif
