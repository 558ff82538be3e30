/* fuzz_lsp: the language server fed a byte stream, in memory (lsp_server_new_in_memory): the
 * framing, JSON-RPC dispatch, the lifecycle, text synchronisation and every handler, with the
 * UTF-16 and UTF-8 position encodings. Whatever comes in, every message the server writes must
 * be framed correctly and be valid JSON-RPC (a client would drop the session otherwise), and a
 * session that ends with shutdown and exit must exit with 0. In a document session, what the
 * editor shows after the edits (the diagnostics pulled: ranges, codes, messages) must be what it
 * shows for the same text opened afresh: the server brings its analysis and the diagnostics it
 * rendered up to date edit by edit, and neither may drift from the text.
 *
 * Byte 0 chooses how the rest is read (its low two bits) and flags (the others):
 *   mode 0  framed messages: the rest split at NUL bytes, each part framed with its length;
 *   mode 1  raw bytes, for the framer to make sense of;
 *   mode 2  a document: the rest is opened and every feature is asked about it, then edited;
 *   mode 3  the same with the whole input as the document ('{' and '[' are mode 3, so any JSON
 *           file is a seed);
 *   0x04    the UTF-8 position encoding (UTF-16 otherwise);
 *   0x08    each message fed (and handled) on its own, instead of all in one batch;
 *   0x10    modes 0 and 1: no initialize first (the fuzzer's bytes meet a new server);
 *   0x20    snippets, verbose trace and settings in initialize.
 * Modes 0 and 1 start, unless 0x10 is set, with a fixed initialize and initialized, so that the
 * fuzzer's own messages reach the document handlers. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "json/json.h"
#include "lsp_framing.h"
#include "lsp_server.h"
#include "schema/schema.h"

#define MODE_FRAMED 0
#define MODE_RAW 1
#define MODE_DOCUMENT 2
#define MODE_WHOLE_DOCUMENT 3
#define FLAG_UTF8 0x04
#define FLAG_ONE_BY_ONE 0x08
#define FLAG_NO_PRELUDE 0x10
#define FLAG_RICH_CLIENT 0x20

/* Positions at which a document is asked for completion and hover. */
#define POSITIONS 12u
/* Raw mode with FLAG_ONE_BY_ONE: bytes per feed. */
#define RAW_CHUNK 61u
/* The ids of the two diagnostic pulls compared: after the edits, and after reopening. */
#define ID_EDITED 1000
#define ID_REOPENED 1001

static const char uri[] = "file:///fuzz/doc.source.json";

/* ---- checking what the server writes ---- */

/* The server's output goes through a framer as it is written (one framed message per write),
 * so that nothing is buffered and each message is checked where it was produced. */
struct output {
    struct lsp_framing framing;
    struct lsp_framing_sink sink;
    size_t messages;
    /* The "items" of the responses to ID_EDITED and ID_REOPENED, as written (malloc'd). */
    char *items[2];
    size_t items_len[2];
};

/* Keeps the diagnostics of a response to one of the two pulls compared. */
static void keep_items(struct output *out, struct json_doc *doc, const char *body)
{
    int64_t id;
    uint32_t id_node = json_object_get(doc, doc->root, "id", 2);
    if (!json_node_int64(doc, id_node, &id) || (id != ID_EDITED && id != ID_REOPENED))
        return;
    uint32_t result = json_object_get(doc, doc->root, "result", 6);
    FUZZ_CHECK(result != JSON_NONE); /* a pull of an open document is answered */
    uint32_t items = json_object_get(doc, result, "items", 5);
    FUZZ_CHECK(items != JSON_NONE && doc->nodes[items].kind == JSON_ARRAY);
    int which = id == ID_REOPENED;
    size_t len = doc->nodes[items].end - doc->nodes[items].start;
    free(out->items[which]);
    out->items[which] = malloc(len > 0 ? len : 1);
    FUZZ_CHECK(out->items[which] != NULL);
    memcpy(out->items[which], body + doc->nodes[items].start, len);
    out->items_len[which] = len;
}

static void check_message(void *context, const char *body, size_t len)
{
    struct output *out = context;
    struct json_doc doc;
    FUZZ_CHECK(json_parse(&doc, body, len, NULL) == 0);
    if (doc.error_count > 0)
        fprintf(stderr, "server wrote invalid JSON: %s\n%.*s\n", doc.errors[0].message,
                (int)(len < 2000 ? len : 2000), body);
    FUZZ_CHECK(doc.error_count == 0);
    FUZZ_CHECK(doc.root != JSON_NONE && doc.nodes[doc.root].kind == JSON_OBJECT);
    uint32_t version = json_object_get(&doc, doc.root, "jsonrpc", 7);
    FUZZ_CHECK(json_node_string_equals(&doc, version, "2.0", 3));
    bool response = json_object_get(&doc, doc.root, "id", 2) != JSON_NONE;
    bool notification = json_object_get(&doc, doc.root, "method", 6) != JSON_NONE;
    FUZZ_CHECK(response != notification);
    if (response)
        keep_items(out, &doc, body);
    json_doc_free(&doc);
    out->messages++;
}

static void output_framing_error(void *context, const char *message)
{
    (void)context;
    fprintf(stderr, "server output is not framed correctly: %s\n", message);
    FUZZ_CHECK(!"output framing error");
}

/* The diagnostics pulled after the edits are those pulled for the same text opened afresh. */
static void check_same_items(const struct output *out)
{
    FUZZ_CHECK(out->items[0] != NULL && out->items[1] != NULL);
    bool same = out->items_len[0] == out->items_len[1] &&
                memcmp(out->items[0], out->items[1], out->items_len[0]) == 0;
    if (!same)
        fprintf(stderr, "after the edits: %.*s\nopened afresh: %.*s\n", (int)out->items_len[0],
                out->items[0], (int)out->items_len[1], out->items[1]);
    FUZZ_CHECK(same);
}

static void output_init(struct output *out)
{
    memset(out, 0, sizeof *out);
    lsp_framing_init(&out->framing, 0);
    out->sink = (struct lsp_framing_sink){check_message, output_framing_error, out};
}

static void capture(void *context, const char *data, size_t len)
{
    struct output *out = context;
    size_t before = out->messages;
    FUZZ_CHECK(lsp_framing_feed(&out->framing, data, len, &out->sink) == 0);
    /* Each write is one whole message. */
    FUZZ_CHECK(out->messages == before + 1 && out->framing.len == 0 && !out->framing.in_body);
}

/* ---- building the client's messages ---- */

/* The messages to feed, each framed, one after the other. */
struct script {
    char *bytes;
    size_t len, cap;
    size_t *ends; /* where each message ends, for feeding them one by one */
    size_t count, ends_cap;
};

static void script_bytes(struct script *s, const char *data, size_t len)
{
    if (s->len + len > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + len)
            cap *= 2;
        s->bytes = realloc(s->bytes, cap);
        FUZZ_CHECK(s->bytes != NULL);
        s->cap = cap;
    }
    if (len > 0)
        memcpy(s->bytes + s->len, data, len);
    s->len += len;
}

static void script_end_message(struct script *s)
{
    if (s->count == s->ends_cap) {
        s->ends_cap = s->ends_cap ? s->ends_cap * 2 : 32;
        s->ends = realloc(s->ends, s->ends_cap * sizeof *s->ends);
        FUZZ_CHECK(s->ends != NULL);
    }
    s->ends[s->count++] = s->len;
}

static void script_framed(struct script *s, const char *body, size_t len)
{
    char header[64];
    int n = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", len);
    script_bytes(s, header, (size_t)n);
    script_bytes(s, body, len);
    script_end_message(s);
}

/* Frames the writer's message into the script and frees the writer. */
static void script_json(struct script *s, struct json_writer *w)
{
    json_write_object_end(w);
    FUZZ_CHECK(!w->failed);
    script_framed(s, w->buf, w->len);
    json_writer_free(w);
}

static void begin(struct json_writer *w, const char *method, int id)
{
    json_writer_init(w, 0);
    json_write_object_begin(w);
    json_write_key(w, "jsonrpc");
    json_write_string(w, "2.0");
    if (id >= 0) {
        json_write_key(w, "id");
        json_write_int(w, id);
    }
    json_write_key(w, "method");
    json_write_string(w, method);
    json_write_key(w, "params");
    json_write_object_begin(w);
}

static void write_text_document(struct json_writer *w)
{
    json_write_key(w, "textDocument");
    json_write_object_begin(w);
    json_write_key(w, "uri");
    json_write_string(w, uri);
    json_write_object_end(w);
}

static void write_position(struct json_writer *w, const char *key, struct text_position p)
{
    json_write_key(w, key);
    line_index_write_text_position(w, p);
}

static void write_range(struct json_writer *w, struct text_position a, struct text_position b)
{
    json_write_key(w, "range");
    json_write_object_begin(w);
    write_position(w, "start", a);
    write_position(w, "end", b);
    json_write_object_end(w);
}

static void write_settings(struct json_writer *w)
{
    json_write_object_begin(w);
    json_write_key(w, "rules");
    json_write_object_begin(w);
    json_write_key(w, "unknown-field");
    json_write_string(w, "error");
    json_write_key(w, "kind-inferred");
    json_write_string(w, "off");
    json_write_object_end(w);
    json_write_key(w, "types");
    json_write_object_begin(w);
    json_write_key(w, "MY_ID");
    json_write_string(w, "CLOUDA_OBJECT_STORAGE");
    json_write_object_end(w);
    json_write_object_end(w);
}

static void script_initialize(struct script *s, unsigned flags)
{
    struct json_writer w;
    begin(&w, "initialize", 0);
    json_write_key(&w, "processId");
    json_write_null(&w);
    json_write_key(&w, "capabilities");
    json_write_object_begin(&w);
    json_write_key(&w, "general");
    json_write_object_begin(&w);
    json_write_key(&w, "positionEncodings");
    json_write_array_begin(&w);
    json_write_string(&w, flags & FLAG_UTF8 ? "utf-8" : "utf-16");
    json_write_array_end(&w);
    json_write_object_end(&w);
    if (flags & FLAG_RICH_CLIENT) {
        json_write_key(&w, "textDocument");
        json_write_object_begin(&w);
        json_write_key(&w, "completion");
        json_write_object_begin(&w);
        json_write_key(&w, "completionItem");
        json_write_object_begin(&w);
        json_write_key(&w, "snippetSupport");
        json_write_bool(&w, true);
        json_write_object_end(&w);
        json_write_object_end(&w);
        json_write_object_end(&w);
    }
    json_write_object_end(&w);
    if (flags & FLAG_RICH_CLIENT) {
        json_write_key(&w, "trace");
        json_write_string(&w, "verbose");
        json_write_key(&w, "initializationOptions");
        write_settings(&w);
    }
    json_write_object_end(&w);
    script_json(s, &w);

    begin(&w, "initialized", -1);
    json_write_object_end(&w);
    script_json(s, &w);
}

/* A request about the document with no other params. */
static void script_request(struct script *s, const char *method, int id)
{
    struct json_writer w;
    begin(&w, method, id);
    write_text_document(&w);
    json_write_object_end(&w);
    script_json(s, &w);
}

static void script_at(struct script *s, const char *method, int id, struct text_position p)
{
    struct json_writer w;
    begin(&w, method, id);
    write_text_document(&w);
    write_position(&w, "position", p);
    json_write_object_end(&w);
    script_json(s, &w);
}

static void script_code_action(struct script *s, int id, struct text_position a,
                               struct text_position b)
{
    struct json_writer w;
    begin(&w, "textDocument/codeAction", id);
    write_text_document(&w);
    write_range(&w, a, b);
    json_write_key(&w, "context");
    json_write_object_begin(&w);
    json_write_key(&w, "diagnostics");
    json_write_array_begin(&w);
    json_write_array_end(&w);
    json_write_object_end(&w);
    json_write_object_end(&w);
    script_json(s, &w);
}

static void script_open(struct script *s, const char *text, size_t len)
{
    struct json_writer w;
    begin(&w, "textDocument/didOpen", -1);
    json_write_key(&w, "textDocument");
    json_write_object_begin(&w);
    json_write_key(&w, "uri");
    json_write_string(&w, uri);
    json_write_key(&w, "languageId");
    json_write_string(&w, "json");
    json_write_key(&w, "version");
    json_write_int(&w, 1);
    json_write_key(&w, "text");
    json_write_string_n(&w, text, len);
    json_write_object_end(&w);
    json_write_object_end(&w);
    script_json(s, &w);
}

/* didChange replacing [a, b) with `text`, or the whole document when `whole`. */
static void script_change(struct script *s, int version, bool whole, struct text_position a,
                          struct text_position b, const char *text, size_t len)
{
    struct json_writer w;
    begin(&w, "textDocument/didChange", -1);
    json_write_key(&w, "textDocument");
    json_write_object_begin(&w);
    json_write_key(&w, "uri");
    json_write_string(&w, uri);
    json_write_key(&w, "version");
    json_write_int(&w, version);
    json_write_object_end(&w);
    json_write_key(&w, "contentChanges");
    json_write_array_begin(&w);
    json_write_object_begin(&w);
    if (!whole)
        write_range(&w, a, b);
    json_write_key(&w, "text");
    json_write_string_n(&w, text, len);
    json_write_object_end(&w);
    json_write_array_end(&w);
    json_write_object_end(&w);
    script_json(s, &w);
}

/* ---- the document's text as the server holds it ---- */

/* `len` bytes of `text` as a client's JSON string carries them (json_write_string_n writes a
 * byte that is not UTF-8 as U+FFFD) into `out`, which has room for 3 * len bytes; returns the
 * length. */
static size_t as_sent(const char *text, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        const unsigned char *c = (const unsigned char *)text + i;
        uint32_t width = *c < 0x80 ? 1 : json_utf8_sequence_length(c, len - i);
        if (width == 0) {
            memcpy(out + n, "\xEF\xBF\xBD", 3);
            n += 3;
            i++;
            continue;
        }
        memcpy(out + n, c, width);
        n += width;
        i += width;
    }
    return n;
}

struct replica {
    char *text; /* malloc'd */
    size_t len;
};

/* Applies to `r` the didChange of [a, b) to `piece` as the server applies it
 * (lsp_document_replace): positions to offsets in the text as it is, a reversed range
 * swapped. */
static void replica_change(struct replica *r, struct text_position a, struct text_position b,
                           const char *piece, size_t len, enum position_encoding encoding)
{
    struct line_index lines;
    FUZZ_CHECK(line_index_build(&lines, r->text, r->len) == 0);
    uint32_t start = line_index_offset(&lines, a, encoding);
    uint32_t end = line_index_offset(&lines, b, encoding);
    line_index_free(&lines);
    if (end < start) {
        uint32_t t = start;
        start = end;
        end = t;
    }
    char *text = malloc(r->len - (end - start) + 3 * len + 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, r->text, start);
    size_t sent = as_sent(piece, len, text + start);
    memcpy(text + start + sent, r->text + end, r->len - end);
    r->len = r->len - (end - start) + sent;
    free(r->text);
    r->text = text;
}

/* Opens the document (`text` as sent), asks every feature about it, edits it; pulls its
 * diagnostics, closes it, opens its new text afresh and pulls them again (the two are compared);
 * changes the settings, closes it and ends the session properly. */
static void script_document(struct script *s, const char *text, size_t len, unsigned flags)
{
    enum position_encoding encoding = flags & FLAG_UTF8 ? POSITION_UTF8 : POSITION_UTF16;
    struct line_index lines;
    FUZZ_CHECK(line_index_build(&lines, text, len) == 0);
    struct text_position positions[POSITIONS];
    for (uint32_t i = 0; i < POSITIONS; i++)
        positions[i] =
            line_index_position(&lines, (uint32_t)((uint64_t)i * len / (POSITIONS - 1)), encoding);
    struct text_position start = {0, 0}, end = positions[POSITIONS - 1];
    line_index_free(&lines);

    int id = 1;
    script_open(s, text, len);
    script_request(s, "textDocument/diagnostic", id++);
    script_request(s, "textDocument/documentSymbol", id++);
    struct json_writer w;
    begin(&w, "textDocument/formatting", id++);
    write_text_document(&w);
    json_write_key(&w, "options");
    json_write_object_begin(&w);
    json_write_key(&w, "tabSize");
    json_write_int(&w, 4);
    json_write_key(&w, "insertSpaces");
    json_write_bool(&w, !(flags & FLAG_RICH_CLIENT));
    json_write_object_end(&w);
    json_write_object_end(&w);
    script_json(s, &w);
    script_code_action(s, id++, start, end);
    for (uint32_t i = 0; i < POSITIONS; i++) {
        script_at(s, "textDocument/completion", id++, positions[i]);
        script_at(s, "textDocument/hover", id++, positions[i]);
    }
    /* An edit in the middle: bytes of the document itself, moved (positions 3 to 5 replaced
     * with what lay at the start), then the features again on the changed text. */
    size_t moved = len < 16 ? len : 16;
    struct replica now = {malloc(len > 0 ? len : 1), len};
    FUZZ_CHECK(now.text != NULL);
    memcpy(now.text, text, len);
    script_change(s, 2, false, positions[3], positions[5], text, moved);
    replica_change(&now, positions[3], positions[5], text, moved, encoding);
    script_request(s, "textDocument/diagnostic", id++);
    script_at(s, "textDocument/completion", id++, positions[3]);
    script_code_action(s, id++, positions[2], positions[4]);
    /* A reversed range and a range past the end are the client's mistakes, not crashes. */
    script_change(s, 3, false, positions[7], positions[6], "", 0);
    replica_change(&now, positions[7], positions[6], "", 0, encoding);
    struct text_position past = {end.line + 5, 0};
    script_change(s, 4, false, end, past, "}", 1);
    replica_change(&now, end, past, "}", 1, encoding);
    /* What the editor shows now, and for the same text opened afresh. */
    script_request(s, "textDocument/diagnostic", ID_EDITED);
    script_request(s, "textDocument/didClose", -1);
    script_open(s, now.text, now.len);
    script_request(s, "textDocument/diagnostic", ID_REOPENED);
    free(now.text);
    script_request(s, "textDocument/documentSymbol", id++);
    /* Settings change: every open document is analysed again and republished. */
    begin(&w, "workspace/didChangeConfiguration", -1);
    json_write_key(&w, "settings");
    write_settings(&w);
    json_write_object_end(&w);
    script_json(s, &w);
    script_change(s, 5, true, start, start, "", 0);
    script_request(s, "textDocument/diagnostic", id++);
    script_request(s, "textDocument/didClose", -1);
    script_at(s, "textDocument/hover", id++, start); /* the document is closed now */
    script_request(s, "shutdown", id++);
    begin(&w, "exit", -1);
    json_write_object_end(&w);
    script_json(s, &w);
}

/* Frames each NUL-separated part of `data`. */
static void script_parts(struct script *s, const char *data, size_t len)
{
    size_t at = 0;
    while (at <= len) {
        const char *nul = memchr(data + at, '\0', len - at);
        size_t part = nul != NULL ? (size_t)(nul - (data + at)) : len - at;
        script_framed(s, data + at, part);
        at += part + 1;
    }
}

static void script_raw(struct script *s, const char *data, size_t len)
{
    for (size_t at = 0; at < len; at += RAW_CHUNK) {
        script_bytes(s, data + at, len - at < RAW_CHUNK ? len - at : RAW_CHUNK);
        script_end_message(s);
    }
}

/* ---- the target ---- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned mode = data[0] & 3u, flags = data[0] & ~3u;
    const char *rest = (const char *)data + 1;
    size_t rest_len = size - 1;

    struct script script = {0};
    bool document = mode == MODE_DOCUMENT || mode == MODE_WHOLE_DOCUMENT;
    if (document || !(flags & FLAG_NO_PRELUDE))
        script_initialize(&script, flags);
    char *sent = NULL; /* a document as its didOpen carries it */
    size_t sent_len = 0;
    if (document) {
        const char *text = mode == MODE_DOCUMENT ? rest : (const char *)data;
        size_t len = mode == MODE_DOCUMENT ? rest_len : size;
        sent = malloc(3 * len + 1);
        FUZZ_CHECK(sent != NULL);
        sent_len = as_sent(text, len, sent);
    }
    switch (mode) {
    case MODE_FRAMED: script_parts(&script, rest, rest_len); break;
    case MODE_RAW: script_raw(&script, rest, rest_len); break;
    default: script_document(&script, sent, sent_len, flags); break;
    }

    struct output out;
    output_init(&out);
    struct lsp_server *server =
        lsp_server_new_in_memory(uv_default_loop(), fuzz_registry(), capture, &out);
    FUZZ_CHECK(server != NULL);
    if (flags & FLAG_ONE_BY_ONE) {
        size_t from = 0;
        for (size_t i = 0; i < script.count; i++) {
            lsp_server_feed(server, script.bytes + from, script.ends[i] - from);
            from = script.ends[i];
        }
    } else {
        lsp_server_feed(server, script.bytes, script.len);
    }
    int code = lsp_server_free_in_memory(server);
    if (document) {
        FUZZ_CHECK(code == 0);
        check_same_items(&out);
    } else {
        FUZZ_CHECK(code == 0 || code == 1);
    }
    free(out.items[0]);
    free(out.items[1]);
    free(sent);
    lsp_framing_free(&out.framing);
    free(script.bytes);
    free(script.ends);
    return 0;
}
