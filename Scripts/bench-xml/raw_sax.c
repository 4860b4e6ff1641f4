/*
 * The raw-libxml2 baseline for Scripts/bench: libxml2's SAX2 push parser
 * reading an export with empty callbacks that only count elements, fed in
 * 1 MiB chunks with the options the importer uses. The importer's reader
 * (prologue filter, element batches) is measured against it in the same run.
 *
 *   raw_sax <export.xml>
 *
 * The file must have no DTD that libxml2 rejects (the generated exports
 * written with --version 14 have a well-formed one). Prints one line:
 *
 *   seconds=<s> elements=<n>
 */
#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long elements = 0;

static void start(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                  int namespaces, const xmlChar **namespaceValues, int attributes, int defaulted,
                  const xmlChar **values) {
    elements++;
}

static void end(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: raw_sax <export.xml>\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) {
        perror(argv[1]);
        return 1;
    }
    static char buffer[1 << 20];
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = start;
    handler.endElementNs = end;
    struct timespec begin, finish;
    clock_gettime(CLOCK_MONOTONIC, &begin);
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL);
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOCDATA);
    size_t count;
    int code = 0;
    while (code == 0 && (count = fread(buffer, 1, sizeof buffer, file)) > 0) {
        code = xmlParseChunk(context, buffer, (int)count, 0);
    }
    if (code == 0) code = xmlParseChunk(context, NULL, 0, 1);
    clock_gettime(CLOCK_MONOTONIC, &finish);
    int wellFormed = context->wellFormed;
    xmlFreeParserCtxt(context);
    fclose(file);
    if (code != 0 || !wellFormed) {
        fprintf(stderr, "raw_sax: the file is not well-formed (libxml2 error %d)\n", code);
        return 1;
    }
    double seconds = (finish.tv_sec - begin.tv_sec) + (finish.tv_nsec - begin.tv_nsec) / 1e9;
    printf("seconds=%.6f elements=%ld\n", seconds, elements);
    return 0;
}
