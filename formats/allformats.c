/*
 * Every format, for the front door (stackcollapse) alone: naming them
 * links every reader and the libraries they need.
 */
#include "formats/collapse.h"
#include "formats/bcc.h"
#include "formats/chrome.h"
#include "formats/dtrace.h"
#include "formats/firefox.h"
#include "formats/folded.h"
#include "formats/ghcprof.h"
#include "formats/jfr.h"
#include "formats/otlp.h"
#include "formats/perf.h"
#include "formats/pprof.h"
#include "formats/sample.h"
#include "formats/speedscope.h"
#include "formats/svgread.h"
#include "formats/trace.h"
#include "formats/vsprof.h"
#include "formats/vtune.h"

const struct format *const collapse_formats[] = {
#define FORMAT(x) &x##_format,
#include "formats/formatlist.h"
#undef FORMAT
};

const size_t collapse_nformats =
    sizeof collapse_formats / sizeof collapse_formats[0];
