/* lsp.c - `cglint server`: the Language Server Protocol (3.17) over stdio.
 *
 * JSON-RPC 2.0 messages with Content-Length framing, parsed and written
 * with jansson.  One thread: a message is read, handled, answered; when no
 * message is waiting, the documents changed since their last analysis are
 * analysed and their diagnostics published (a burst of keystrokes costs
 * one analysis).  The project context is project.h's.
 *
 *   initialize          the workspace root; the project is walked and read
 *   initialized         the first analysis of the whole tree fills the tree cache
 *                       (trees and module indexes)
 *   didOpen/didChange   the buffer (full or incremental sync) is analysed
 *   didSave             the file is read from disk again, then analysed
 *   didClose            the buffer is dropped, its diagnostics cleared
 *   didChangeWatchedFiles  files changed on disk outside the editor (a
 *                       checkout, another tool; registered at initialized
 *                       when the client can register dynamically): the tree
 *                       is walked and the changed files read again, or, for
 *                       a configuration file, the project is opened afresh;
 *                       every open buffer is analysed again
 *   codeAction          the fixes of the diagnostics in range (safe ones
 *                       unless unsafeFixes is configured) as quickfixes
 *   hover               the rule page of the diagnostics under the cursor
 *   shutdown/exit       exit status 0, or 1 for an exit without shutdown
 *
 * Bad input never ends the server: a body that is not JSON gets a Parse
 * error (-32700), a message that is not a request an Invalid Request
 * (-32600), an unknown method Method not found (-32601), bad parameters
 * Invalid params (-32602); a buffer that does not parse gets no
 * diagnostics (its notice goes to the client's log). */
#include "server.h"
#include "project.h"
#include "workflow/config.h"
#include "core/path.h"
#include "core/rules.h"
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef CGLINT_VERSION
#define CGLINT_VERSION "0.0.0"
#endif
#define RULE_PAGE "https://github.com/cglint/cglint/blob/main/rules/"
#define MAX_MESSAGE (256u << 20)

enum { ERR_PARSE = -32700, ERR_INVALID_REQUEST = -32600, ERR_NO_METHOD = -32601, ERR_PARAMS = -32602,
       ERR_INTERNAL = -32603, ERR_NOT_INITIALIZED = -32002 };
enum { ENC_UTF8, ENC_UTF16, ENC_UTF32 };

typedef struct doc {
    char *uri, *path;
    char *text;           /* the buffer */
    size_t len;
    long version;
    int dirty;            /* changed since the last analysis */
    int analysed;
    cg_report report;     /* the last analysis (of `atext`) */
    char *atext;          /* the text that analysis saw */
    size_t alen;
} doc;

typedef struct server {
    int in_fd, out_fd;
    char *buf;            /* input not yet consumed */
    size_t rpos, wpos, cap;
    int initialized, shut_down;
    int enc;
    int unsafe_fixes;
    char *root;
    cg_configs *configs;
    cg_project *project;
    int warmed;
    int watch;            /* the client registers didChangeWatchedFiles dynamically */
    doc **docs;
    size_t ndocs;
} server;

/* ---- output ------------------------------------------------------------------- */
static void write_all(server *s, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(s->out_fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;   /* the client is gone; reading will see EOF */
        p += w;
        n -= (size_t)w;
    }
}

static void send_json(server *s, json_t *msg)
{
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!body) return;
    char head[64];
    size_t bl = strlen(body);
    int hl = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", bl);
    write_all(s, head, (size_t)hl);
    write_all(s, body, bl);
    free(body);
}

static void respond(server *s, json_t *id, json_t *result)
{
    json_t *m = json_object();
    json_object_set(m, "id", id ? id : json_null());
    json_object_set_new(m, "result", result ? result : json_null());
    send_json(s, m);
}

static void respond_error(server *s, json_t *id, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *e = json_object();
    json_object_set_new(e, "code", json_integer(code));
    json_object_set_new(e, "message", json_string(msg));
    json_t *m = json_object();
    json_object_set(m, "id", id ? id : json_null());
    json_object_set_new(m, "error", e);
    send_json(s, m);
}

static void notify(server *s, const char *method, json_t *params)
{
    json_t *m = json_object();
    json_object_set_new(m, "method", json_string(method));
    json_object_set_new(m, "params", params);
    send_json(s, m);
}

/* window/logMessage: 1 error, 2 warning, 3 info, 4 log */
static void log_message(server *s, int type, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *p = json_object();
    json_object_set_new(p, "type", json_integer(type));
    json_t *str = json_string(msg);
    json_object_set_new(p, "message", str ? str : json_string("(a message that is not UTF-8)"));
    notify(s, "window/logMessage", p);
}

/* ---- input: Content-Length framing ---------------------------------------------- */
static int fill(server *s)
{
    if (s->rpos == s->wpos) s->rpos = s->wpos = 0;
    if (s->wpos == s->cap) {
        if (s->rpos) {
            memmove(s->buf, s->buf + s->rpos, s->wpos - s->rpos);
            s->wpos -= s->rpos;
            s->rpos = 0;
        } else {
            size_t cap = s->cap ? s->cap * 2 : 65536;
            char *g = realloc(s->buf, cap);
            if (!g) return -1;
            s->buf = g;
            s->cap = cap;
        }
    }
    ssize_t r;
    do r = read(s->in_fd, s->buf + s->wpos, s->cap - s->wpos); while (r < 0 && errno == EINTR);
    if (r <= 0) return -1;
    s->wpos += (size_t)r;
    return 0;
}

static int input_waiting(server *s)
{
    if (s->rpos < s->wpos) return 1;
    struct pollfd p = { .fd = s->in_fd, .events = POLLIN };
    return poll(&p, 1, 0) > 0;
}

/* The next message body (malloc'ed, *len bytes), or NULL at end of input.
 * A header block without Content-Length is reported and skipped. */
static char *read_message(server *s, size_t *len, int *bad)
{
    *bad = 0;
    for (;;) {
        /* the header block ends at an empty line */
        char *end = NULL;
        size_t hlen = 0;
        for (;;) {
            char *b = s->buf + s->rpos;
            size_t n = s->wpos - s->rpos;
            char *e1 = n >= 4 ? memmem(b, n, "\r\n\r\n", 4) : NULL;
            char *e2 = n >= 2 ? memmem(b, n, "\n\n", 2) : NULL;
            if (e1 && (!e2 || e1 < e2)) { end = e1; hlen = (size_t)(e1 - b) + 4; }
            else if (e2) { end = e2; hlen = (size_t)(e2 - b) + 2; }
            if (end) break;
            if (n > 65536) {   /* no header is this long: drop it */
                fprintf(stderr, "cglint server: a header block over 64 KiB; dropped\n");
                s->rpos = s->wpos;
            }
            if (fill(s) < 0) return NULL;
        }
        char *h = s->buf + s->rpos;
        long long clen = -1;
        for (char *line = h; line < end;) {
            char *nl = memchr(line, '\n', (size_t)(end - line));
            char *le = nl ? nl : end;
            if ((size_t)(le - line) > 15 && strncasecmp(line, "Content-Length:", 15) == 0) {
                char *q;
                errno = 0;
                clen = strtoll(line + 15, &q, 10);
                if (errno || clen < 0) clen = -2;
            }
            line = nl ? nl + 1 : end;
        }
        s->rpos += hlen;
        if (clen < 0 || (unsigned long long)clen > MAX_MESSAGE) {
            fprintf(stderr, "cglint server: a message without a valid Content-Length header (or over %u MiB); "
                    "skipped\n", MAX_MESSAGE >> 20);
            if (clen > 0) {   /* skip the body it announces */
                unsigned long long left = (unsigned long long)clen;
                while (left) {
                    if (s->rpos == s->wpos && fill(s) < 0) return NULL;
                    size_t take = s->wpos - s->rpos < left ? s->wpos - s->rpos : (size_t)left;
                    s->rpos += take;
                    left -= take;
                }
            }
            *bad = 1;
            *len = 0;
            return strdup("");
        }
        while (s->wpos - s->rpos < (size_t)clen)
            if (fill(s) < 0) return NULL;
        char *body = malloc((size_t)clen + 1);
        if (!body) return NULL;
        memcpy(body, s->buf + s->rpos, (size_t)clen);
        body[clen] = 0;
        s->rpos += (size_t)clen;
        *len = (size_t)clen;
        return body;
    }
}

/* ---- URIs ------------------------------------------------------------------------ */
static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* file:///a/b%20c.py -> /a/b c.py (malloc'ed), or NULL for another scheme. */
static char *uri_to_path(const char *uri)
{
    if (!uri || strncmp(uri, "file://", 7) != 0) return NULL;
    const char *p = uri + 7;
    if (strncmp(p, "localhost/", 10) == 0) p += 9;
    if (*p != '/') return NULL;
    size_t n = strlen(p);
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    for (; *p && *p != '?' && *p != '#'; p++) {
        if (*p == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
            *o++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    if (memchr(out, 0, (size_t)(o - out)) || !*out) { free(out); return NULL; }
    char *abs = cg_path_abs(out);
    free(out);
    return abs;
}

static char *path_to_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *out = malloc(8 + 3 * n), *o = out;
    if (!out) return NULL;
    o += sprintf(o, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-._~", *p)) {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    *o = 0;
    return out;
}

/* ---- positions ----------------------------------------------------------------------
 * LSP positions are (line, character) with characters counted in the
 * negotiated encoding (UTF-16 code units unless the client offers UTF-8 or
 * UTF-32); cglint's columns count code points, its edits bytes. */
static size_t utf8_len(unsigned char c)
{
    return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
}

static size_t units(int enc, unsigned char lead)
{
    if (enc == ENC_UTF8) return utf8_len(lead);
    if (enc == ENC_UTF16) return utf8_len(lead) == 4 ? 2 : 1;
    return 1;
}

/* Byte offset where line `line` (0-based) starts; len when past the end. */
static size_t line_offset(const char *t, size_t len, size_t line)
{
    size_t off = 0;
    while (line && off < len) {
        char c = t[off++];
        if (c == '\n' || (c == '\r' && !(off < len && t[off] == '\n'))) line--;
    }
    return off;
}

static size_t line_end(const char *t, size_t len, size_t off)
{
    while (off < len && t[off] != '\n' && t[off] != '\r') off++;
    return off;
}

/* (line, character) -> byte offset, clamped to the line's end. */
static size_t offset_of(int enc, const char *t, size_t len, size_t line, size_t ch)
{
    size_t off = line_offset(t, len, line), end = line_end(t, len, off);
    while (ch && off < end) {
        size_t u = units(enc, (unsigned char)t[off]);
        if (u > ch) break;
        ch -= u;
        off += utf8_len((unsigned char)t[off]);
    }
    return off > end ? end : off;
}

static json_t *position(size_t line, size_t ch)
{
    return json_pack("{s:I,s:I}", "line", (json_int_t)line, "character", (json_int_t)ch);
}

/* byte offset -> position */
static json_t *position_of_offset(int enc, const char *t, size_t len, size_t off)
{
    if (off > len) off = len;
    size_t line = 0, start = 0;
    for (size_t i = 0; i < off; i++) {
        char c = t[i];
        if (c == '\n' || (c == '\r' && !(i + 1 < len && t[i + 1] == '\n'))) { line++; start = i + 1; }
    }
    size_t ch = 0;
    for (size_t i = start; i < off; i += utf8_len((unsigned char)t[i])) ch += units(enc, (unsigned char)t[i]);
    return position(line, ch);
}

/* cglint's 1-based line and code-point column -> position */
static json_t *position_of_col(int enc, const char *t, size_t len, uint32_t line, uint32_t col)
{
    size_t l = line ? line - 1 : 0;
    size_t off = line_offset(t, len, l), end = line_end(t, len, off), ch = 0;
    for (uint32_t c = 1; c < col && off < end; c++) {
        ch += units(enc, (unsigned char)t[off]);
        off += utf8_len((unsigned char)t[off]);
    }
    return position(l, ch);   /* a column past the line's end: its end */
}

static json_t *range_json(json_t *start, json_t *end)
{
    return json_pack("{s:o,s:o}", "start", start, "end", end);
}

/* ---- documents -------------------------------------------------------------------- */
static doc *find_doc(server *s, const char *uri)
{
    for (size_t i = 0; uri && i < s->ndocs; i++)
        if (strcmp(s->docs[i]->uri, uri) == 0) return s->docs[i];
    return NULL;
}

static void doc_free(doc *d)
{
    if (d->analysed) cg_report_free(&d->report);
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d->atext);
    free(d);
}

static void set_text(doc *d, const char *text, size_t len)
{
    char *t = malloc(len + 1);
    if (!t) return;
    memcpy(t, text, len);
    t[len] = 0;
    free(d->text);
    d->text = t;
    d->len = len;
    d->dirty = 1;
}

/* The text an analysis saw, without a UTF-8 BOM (cglint's byte offsets and
 * columns start after it). */
static const char *atext(const doc *d, size_t *len, size_t *bom)
{
    *bom = d->alen >= 3 && memcmp(d->atext, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    *len = d->alen;
    return d->atext;
}

static json_t *finding_range(server *s, const doc *d, const cg_finding *f)
{
    size_t len, bom;
    const char *t = atext(d, &len, &bom);
    /* cglint's columns and offsets start after a BOM; the editor's line 0 too */
    uint32_t el = f->loc.end_line ? f->loc.end_line : f->loc.line;
    uint32_t ec = f->loc.end_line ? f->loc.end_col : f->loc.col + 1;
    json_t *a = position_of_col(s->enc, t + bom, len - bom, f->loc.line, f->loc.col);
    json_t *b = position_of_col(s->enc, t + bom, len - bom, el, ec);
    return range_json(a, b);
}

static json_t *location_json(server *s, const doc *d, const cg_loc *loc)
{
    /* in this buffer: its text; elsewhere: the column as is (the file may be closed) */
    json_t *start, *end;
    char *abs = loc->path ? cg_path_abs(loc->path) : NULL;
    if (abs && strcmp(abs, d->path) == 0) {
        size_t len, bom;
        const char *t = atext(d, &len, &bom);
        start = position_of_col(s->enc, t + bom, len - bom, loc->line, loc->col);
        end = position_of_col(s->enc, t + bom, len - bom, loc->end_line ? loc->end_line : loc->line,
                              loc->end_line ? loc->end_col : loc->col);
    } else {
        start = position(loc->line ? loc->line - 1 : 0, loc->col ? loc->col - 1 : 0);
        end = position(loc->line ? loc->line - 1 : 0, loc->col ? loc->col - 1 : 0);
    }
    char *uri = path_to_uri(abs ? abs : d->path);
    json_t *o = json_pack("{s:s,s:o}", "uri", uri ? uri : d->uri, "range", range_json(start, end));
    free(uri);
    free(abs);
    return o;
}

static int is_this_doc(const doc *d, const char *path)
{
    if (!path) return 0;
    if (strcmp(path, d->path) == 0) return 1;
    char *abs = cg_path_abs(path);
    int same = strcmp(abs, d->path) == 0;
    free(abs);
    return same;
}

static json_t *diagnostic(server *s, const doc *d, const cg_finding *f)
{
    const cg_rule *r = &cg_rules[f->rule];
    int sev = f->level == CG_SEV_ERROR ? 1 : f->level == CG_SEV_WARNING ? 2 : 3;
    char href[256];
    snprintf(href, sizeof href, "%s%s.md", RULE_PAGE, r->id);
    json_t *o = json_object();
    json_object_set_new(o, "range", finding_range(s, d, f));
    json_object_set_new(o, "severity", json_integer(sev));
    json_object_set_new(o, "code", json_string(r->id));
    json_object_set_new(o, "codeDescription", json_pack("{s:s}", "href", href));
    json_object_set_new(o, "source", json_string("cglint"));
    json_t *msg = json_string(f->message ? f->message : r->summary);
    json_object_set_new(o, "message", msg ? msg : json_string(r->summary));
    json_t *rel = json_array();
    if (f->has_capture) {
        char m[256];
        snprintf(m, sizeof m, "the capture (%s)", f->capture_kind ? f->capture_kind : "graph capture");
        json_t *loc = location_json(s, d, &f->capture);
        json_array_append_new(rel, json_pack("{s:o,s:s}", "location", loc, "message", m));
    }
    for (size_t i = 0; i < f->npath; i++) {
        char m[512];
        snprintf(m, sizeof m, "calls %s", f->path[i].function ? f->path[i].function : "?");
        json_t *loc = location_json(s, d, &f->path[i].loc);
        json_t *ms = json_string(m);
        json_array_append_new(rel, json_pack("{s:o,s:o}", "location", loc, "message", ms ? ms : json_string("calls")));
    }
    if (json_array_size(rel)) json_object_set_new(o, "relatedInformation", rel);
    else json_decref(rel);
    return o;
}

/* Does the document's last analysis say it could not be parsed? */
static int unparsable(const doc *d)
{
    for (size_t i = 0; i < d->report.nnotices; i++) {
        const cg_notice *n = &d->report.notices[i];
        if (n->level == CG_ERROR && (!n->path || is_this_doc(d, n->path))) return 1;
    }
    return 0;
}

static void publish(server *s, doc *d)
{
    json_t *diags = json_array();
    if (d->analysed && !unparsable(d))
        for (size_t i = 0; i < d->report.nfindings; i++)
            if (is_this_doc(d, d->report.findings[i].loc.path))
                json_array_append_new(diags, diagnostic(s, d, &d->report.findings[i]));
    json_t *p = json_pack("{s:s,s:o}", "uri", d->uri, "diagnostics", diags);
    if (d->version >= 0) json_object_set_new(p, "version", json_integer(d->version));
    notify(s, "textDocument/publishDiagnostics", p);
}

static void analyse(server *s, doc *d)
{
    if (!s->project || !d->path) {
        d->dirty = 0;
        return;
    }
    if (d->analysed) cg_report_free(&d->report);
    cg_report_init(&d->report, NULL);
    d->analysed = 1;
    cg_project_set_buffer(s->project, d->path, d->text, d->len);
    cg_project_analyze(s->project, d->path, &d->report);
    free(d->atext);
    d->atext = malloc(d->len + 1);
    if (d->atext) memcpy(d->atext, d->text, d->len + 1);
    d->alen = d->atext ? d->len : 0;
    d->dirty = 0;
    for (size_t i = 0; i < d->report.nnotices; i++) {
        const cg_notice *n = &d->report.notices[i];
        int type = n->level == CG_ERROR ? 1 : n->level == CG_WARN ? 2 : 3;
        if (n->path && n->line) log_message(s, type, "cglint: %s:%u:%u: %s", n->path, n->line, n->col, n->message);
        else if (n->path) log_message(s, type, "cglint: %s: %s", n->path, n->message);
        else log_message(s, type, "cglint: %s", n->message);
    }
    publish(s, d);
}

static void analyse_dirty(server *s)
{
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i]->dirty) analyse(s, s->docs[i]);
}

/* ---- requests and notifications ------------------------------------------------------ */
static const char *str_at(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static void log_notices(server *s, const cg_report *r)
{
    for (size_t i = 0; i < r->nnotices; i++)
        if (r->notices[i].level >= CG_WARN)
            log_message(s, r->notices[i].level == CG_ERROR ? 1 : 2, "cglint: %s%s%s",
                        r->notices[i].path ? r->notices[i].path : "", r->notices[i].path ? ": " : "",
                        r->notices[i].message);
}

static void open_project(server *s)
{
    char err[1200];
    s->configs = cg_configs_new(NULL, 0, err, sizeof err);
    if (!s->configs) log_message(s, 1, "cglint: %s", err);
    cg_report notices;
    cg_report_init(&notices, NULL);
    s->project = cg_project_open(s->root, s->configs, 0, &notices);
    log_notices(s, &notices);
    cg_report_free(&notices);
}

static void settings(server *s, json_t *o)
{
    if (!json_is_object(o)) return;
    json_t *c = json_object_get(o, "cglint");
    if (json_is_object(c)) o = c;
    json_t *u = json_object_get(o, "unsafeFixes");
    if (json_is_boolean(u)) s->unsafe_fixes = json_is_true(u);
}

static void on_initialize(server *s, json_t *id, json_t *params)
{
    if (!json_is_object(params)) { respond_error(s, id, ERR_PARAMS, "initialize: params must be an object"); return; }
    if (s->initialized) { respond_error(s, id, ERR_INVALID_REQUEST, "initialize: already initialized"); return; }
    char *root = uri_to_path(str_at(params, "rootUri"));
    if (!root && str_at(params, "rootPath")) root = cg_path_abs(str_at(params, "rootPath"));
    json_t *folders = json_object_get(params, "workspaceFolders");
    if (!root && json_is_array(folders) && json_array_size(folders))
        root = uri_to_path(str_at(json_array_get(folders, 0), "uri"));
    if (!root) root = cg_path_abs(".");
    s->root = root;
    /* UTF-8 positions when the client can take them: no conversion at all */
    s->enc = ENC_UTF16;
    json_t *encs = json_object_get(json_object_get(json_object_get(params, "capabilities"), "general"),
                                   "positionEncodings");
    size_t i;
    json_t *e;
    json_array_foreach(encs, i, e) {
        if (json_is_string(e) && strcmp(json_string_value(e), "utf-8") == 0) { s->enc = ENC_UTF8; break; }
        if (json_is_string(e) && strcmp(json_string_value(e), "utf-32") == 0) s->enc = ENC_UTF32;
    }
    settings(s, json_object_get(params, "initializationOptions"));
    s->watch = json_is_true(json_object_get(json_object_get(json_object_get(json_object_get(params, "capabilities"),
                                                                            "workspace"), "didChangeWatchedFiles"),
                                            "dynamicRegistration"));
    open_project(s);
    s->initialized = 1;
    const char *encname = s->enc == ENC_UTF8 ? "utf-8" : s->enc == ENC_UTF32 ? "utf-32" : "utf-16";
    json_t *caps = json_pack("{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:{s:[s]}}",
                             "positionEncoding", encname,
                             "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
                             "hoverProvider", 1,
                             "codeActionProvider", "codeActionKinds", "quickfix");
    respond(s, id, json_pack("{s:o,s:{s:s,s:s}}", "capabilities", caps,
                             "serverInfo", "name", "cglint", "version", CGLINT_VERSION));
}

static doc *doc_param(server *s, json_t *id, json_t *params, const char *method)
{
    const char *uri = str_at(json_object_get(params, "textDocument"), "uri");
    if (!uri) {
        if (id) respond_error(s, id, ERR_PARAMS, "%s: params.textDocument.uri is missing", method);
        return NULL;
    }
    doc *d = find_doc(s, uri);
    if (!d && id) respond_error(s, id, ERR_PARAMS, "%s: %s is not open", method, uri);
    return d;
}

static void on_did_open(server *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = str_at(td, "uri"), *text = str_at(td, "text");
    if (!uri || !text) { fprintf(stderr, "cglint server: didOpen without textDocument.uri and .text\n"); return; }
    doc *d = find_doc(s, uri);
    if (!d) {
        d = calloc(1, sizeof *d);
        doc **g = d ? realloc(s->docs, (s->ndocs + 1) * sizeof *g) : NULL;
        if (!g || !(d->uri = strdup(uri))) { free(d); return; }
        s->docs = g;
        s->docs[s->ndocs++] = d;
        d->path = uri_to_path(uri);
        if (!d->path) log_message(s, 3, "cglint: %s is not a file: URI; not analysed", uri);
    }
    json_t *v = json_object_get(td, "version");
    d->version = json_is_integer(v) ? (long)json_integer_value(v) : -1;
    set_text(d, text, json_string_length(json_object_get(td, "text")));
}

static void on_did_change(server *s, json_t *params)
{
    doc *d = doc_param(s, NULL, params, "didChange");
    json_t *changes = json_object_get(params, "contentChanges");
    if (!d || !json_is_array(changes)) return;
    json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(v)) d->version = (long)json_integer_value(v);
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        json_t *text = json_object_get(c, "text");
        if (!json_is_string(text)) continue;
        const char *t = json_string_value(text);
        size_t tl = json_string_length(text);
        json_t *range = json_object_get(c, "range");
        if (!json_is_object(range)) { set_text(d, t, tl); continue; }
        json_t *a = json_object_get(range, "start"), *b = json_object_get(range, "end");
        json_int_t al = json_integer_value(json_object_get(a, "line")), ac = json_integer_value(json_object_get(a, "character"));
        json_int_t bl = json_integer_value(json_object_get(b, "line")), bc = json_integer_value(json_object_get(b, "character"));
        if (al < 0 || ac < 0 || bl < 0 || bc < 0) continue;
        size_t so = offset_of(s->enc, d->text, d->len, (size_t)al, (size_t)ac);
        size_t eo = offset_of(s->enc, d->text, d->len, (size_t)bl, (size_t)bc);
        if (eo < so) eo = so;
        size_t nl = d->len - (eo - so) + tl;
        char *n = malloc(nl + 1);
        if (!n) continue;
        memcpy(n, d->text, so);
        memcpy(n + so, t, tl);
        memcpy(n + so + tl, d->text + eo, d->len - eo);
        n[nl] = 0;
        free(d->text);
        d->text = n;
        d->len = nl;
        d->dirty = 1;
    }
}

static void on_did_save(server *s, json_t *params)
{
    /* the project's entry is refreshed whether or not the document is open */
    char *path = uri_to_path(str_at(json_object_get(params, "textDocument"), "uri"));
    if (path && s->project) cg_project_saved(s->project, path);
    free(path);
    /* every open buffer may depend on it (a capture there reaches them) */
    for (size_t i = 0; i < s->ndocs; i++) s->docs[i]->dirty = 1;
}

static void on_did_close(server *s, json_t *params)
{
    doc *d = doc_param(s, NULL, params, "didClose");
    if (!d) return;
    if (d->path && s->project) cg_project_set_buffer(s->project, d->path, NULL, 0);
    json_t *p = json_pack("{s:s,s:[]}", "uri", d->uri, "diagnostics");
    notify(s, "textDocument/publishDiagnostics", p);
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i] == d) { s->docs[i] = s->docs[--s->ndocs]; break; }
    doc_free(d);
}

/* Ask the client to tell us of files changed on disk: the sources the walk
 * takes and the files that configure it. */
static void register_watchers(server *s)
{
    json_t *watchers = json_pack("[{s:s},{s:s}]", "globPattern", "**/*.{py,pyi,cu,cuh,c,cc,cpp,cxx,h,hh,hpp,hxx}",
                                 "globPattern", "**/{pyproject.toml,.cglint.toml,.gitignore}");
    json_t *reg = json_pack("{s:s,s:s,s:{s:o}}", "id", "cglint-watched-files",
                            "method", "workspace/didChangeWatchedFiles", "registerOptions", "watchers", watchers);
    json_t *m = json_pack("{s:s,s:s,s:s,s:{s:[o]}}", "jsonrpc", "2.0", "id", "cglint-register-watchers",
                          "method", "client/registerCapability", "params", "registrations", reg);
    send_json(s, m);
}

/* A configuration file: settings, excludes and the walk may all change. */
static int is_config_file(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strcmp(base, "pyproject.toml") == 0 || strcmp(base, ".cglint.toml") == 0;
}

static void on_watched_files(server *s, json_t *params)
{
    json_t *changes = json_object_get(params, "changes");
    if (!json_is_array(changes) || !json_array_size(changes) || !s->project) return;
    size_t n = json_array_size(changes), k = 0, i;
    int reopen = 0;
    char **paths = calloc(n, sizeof *paths);
    json_t *c;
    json_array_foreach(changes, i, c) {
        char *path = uri_to_path(str_at(c, "uri"));
        if (!path) continue;
        if (is_config_file(path)) reopen = 1;
        if (paths) paths[k++] = path; else free(path);
    }
    if (reopen) {
        /* the configuration discovery caches what it read: start again */
        cg_project_free(s->project);
        s->project = NULL;
        if (s->configs) cg_configs_free(s->configs);
        s->configs = NULL;
        open_project(s);
        s->warmed = 0;
    } else if (k) {
        cg_report notices;
        cg_report_init(&notices, NULL);
        cg_project_rescan(s->project, (const char *const *)paths, k, &notices);
        log_notices(s, &notices);
        cg_report_free(&notices);
    }
    for (i = 0; i < k; i++) free(paths[i]);
    free(paths);
    if (reopen || k)
        for (i = 0; i < s->ndocs; i++) s->docs[i]->dirty = 1;
}

/* positions of a request, as byte offsets of the analysed text */
static int range_param(server *s, const doc *d, json_t *range, size_t *so, size_t *eo)
{
    json_t *a = json_object_get(range, "start"), *b = json_object_get(range, "end");
    if (!a) a = range;   /* a bare position (hover) */
    if (!b) b = a;
    json_t *al = json_object_get(a, "line"), *ac = json_object_get(a, "character");
    json_t *bl = json_object_get(b, "line"), *bc = json_object_get(b, "character");
    if (!json_is_integer(al) || !json_is_integer(ac) || !json_is_integer(bl) || !json_is_integer(bc)) return -1;
    if (json_integer_value(al) < 0 || json_integer_value(ac) < 0 || json_integer_value(bl) < 0 ||
        json_integer_value(bc) < 0)
        return -1;
    *so = offset_of(s->enc, d->atext, d->alen, (size_t)json_integer_value(al), (size_t)json_integer_value(ac));
    *eo = offset_of(s->enc, d->atext, d->alen, (size_t)json_integer_value(bl), (size_t)json_integer_value(bc));
    return 0;
}

/* A finding's span as byte offsets of the analysed text. */
static void finding_span(const doc *d, const cg_finding *f, size_t *so, size_t *eo)
{
    size_t len, bom;
    const char *t = atext(d, &len, &bom);
    size_t ls = line_offset(t + bom, len - bom, f->loc.line ? f->loc.line - 1 : 0);
    size_t off = ls, end = line_end(t + bom, len - bom, ls);
    for (uint32_t c = 1; c < f->loc.col && off < end; c++) off += utf8_len((unsigned char)t[bom + off]);
    *so = bom + off;
    uint32_t el = f->loc.end_line ? f->loc.end_line : f->loc.line;
    uint32_t ec = f->loc.end_line ? f->loc.end_col : f->loc.col + 1;
    ls = line_offset(t + bom, len - bom, el ? el - 1 : 0);
    off = ls;
    end = line_end(t + bom, len - bom, ls);
    for (uint32_t c = 1; c < ec && off < end; c++) off += utf8_len((unsigned char)t[bom + off]);
    *eo = bom + off;
}

static json_t *findings_at(server *s, doc *d, size_t so, size_t eo)
{
    (void)s;
    json_t *hits = json_array();
    for (size_t i = 0; i < d->report.nfindings; i++) {
        const cg_finding *f = &d->report.findings[i];
        if (!is_this_doc(d, f->loc.path)) continue;
        size_t fs, fe;
        finding_span(d, f, &fs, &fe);
        if (fs <= eo && so <= fe) json_array_append_new(hits, json_integer((json_int_t)i));
    }
    return hits;
}

static doc *current(server *s, json_t *id, json_t *params, const char *method)
{
    doc *d = doc_param(s, id, params, method);
    if (d && (d->dirty || !d->analysed)) analyse(s, d);
    if (d && !d->atext) { respond(s, id, json_null()); return NULL; }
    return d;
}

static void on_code_action(server *s, json_t *id, json_t *params)
{
    doc *d = current(s, id, params, "codeAction");
    if (!d) return;
    size_t so, eo;
    if (range_param(s, d, json_object_get(params, "range"), &so, &eo) < 0) {
        respond_error(s, id, ERR_PARAMS, "codeAction: params.range is not a range");
        return;
    }
    json_t *actions = json_array();
    json_t *hits = findings_at(s, d, so, eo);
    size_t i;
    json_t *h;
    size_t len, bom;
    const char *t = atext(d, &len, &bom);
    json_array_foreach(hits, i, h) {
        const cg_finding *f = &d->report.findings[json_integer_value(h)];
        if (!f->nedits || (!f->fix_safe && !s->unsafe_fixes) || unparsable(d)) continue;
        json_t *edits = json_array();
        for (size_t k = 0; k < f->nedits; k++) {
            const cg_edit *e = &f->edits[k];
            json_t *te = json_object();
            json_object_set_new(te, "range", range_json(position_of_offset(s->enc, t, len, bom + e->start),
                                                        position_of_offset(s->enc, t, len, bom + e->end)));
            json_t *nt = json_string(e->text ? e->text : "");
            json_object_set_new(te, "newText", nt ? nt : json_string(""));
            json_array_append_new(edits, te);
        }
        char title[512];
        snprintf(title, sizeof title, "%s%s (%s)", f->fix_title ? f->fix_title : "Apply the fix",
                 f->fix_safe ? "" : " [unsafe]", cg_rules[f->rule].id);
        json_t *a = json_object();
        json_t *tt = json_string(title);
        json_object_set_new(a, "title", tt ? tt : json_string(cg_rules[f->rule].id));
        json_object_set_new(a, "kind", json_string("quickfix"));
        json_object_set_new(a, "diagnostics", json_pack("[o]", diagnostic(s, d, f)));
        json_object_set_new(a, "isPreferred", json_boolean(f->fix_safe));
        json_t *changes = json_object();
        json_object_set_new(changes, d->uri, edits);
        json_object_set_new(a, "edit", json_pack("{s:o}", "changes", changes));
        json_array_append_new(actions, a);
    }
    json_decref(hits);
    respond(s, id, actions);
}

static void on_hover(server *s, json_t *id, json_t *params)
{
    doc *d = current(s, id, params, "hover");
    if (!d) return;
    size_t so, eo;
    if (range_param(s, d, json_object_get(params, "position"), &so, &eo) < 0) {
        respond_error(s, id, ERR_PARAMS, "hover: params.position is not a position");
        return;
    }
    json_t *hits = findings_at(s, d, so, eo);
    if (!json_array_size(hits) || unparsable(d)) { json_decref(hits); respond(s, id, json_null()); return; }
    char *md = NULL;
    size_t mdlen = 0;
    FILE *m = open_memstream(&md, &mdlen);
    size_t i;
    json_t *h;
    const cg_finding *first = NULL;
    json_array_foreach(hits, i, h) {
        const cg_finding *f = &d->report.findings[json_integer_value(h)];
        const cg_rule *r = &cg_rules[f->rule];
        if (!first) first = f;
        if (m) fprintf(m, "%s**%s** `%s`: %s\n\n%s\n\n---\n\n", i ? "\n---\n\n" : "", r->id, r->name,
                       f->message ? f->message : r->summary, r->doc ? r->doc : r->summary);
    }
    if (m) fclose(m);
    json_decref(hits);
    json_t *val = md ? json_string(md) : NULL;
    free(md);
    if (!val) { respond(s, id, json_null()); return; }
    respond(s, id, json_pack("{s:{s:s,s:o},s:o}", "contents", "kind", "markdown", "value", val,
                             "range", finding_range(s, d, first)));
}

static void handle(server *s, json_t *msg, int *done, int *code)
{
    if (!json_is_object(msg)) {
        respond_error(s, NULL, ERR_INVALID_REQUEST, "a message must be a JSON object (batches are not used by LSP)");
        return;
    }
    json_t *id = json_object_get(msg, "id");
    json_t *jm = json_object_get(msg, "method");
    if (id && !json_is_integer(id) && !json_is_string(id) && !json_is_null(id)) {
        respond_error(s, NULL, ERR_INVALID_REQUEST, "id must be a number or a string");
        return;
    }
    if (!jm) {
        if (json_object_get(msg, "result") || json_object_get(msg, "error")) return;   /* a reply to us */
        respond_error(s, id, ERR_INVALID_REQUEST, "a request needs a method");
        return;
    }
    if (!json_is_string(jm)) { respond_error(s, id, ERR_INVALID_REQUEST, "method must be a string"); return; }
    const char *method = json_string_value(jm);
    json_t *params = json_object_get(msg, "params");
    if (strcmp(method, "exit") == 0) { *done = 1; *code = s->shut_down ? 0 : 1; return; }
    if (!s->initialized && strcmp(method, "initialize") != 0) {
        if (id) respond_error(s, id, ERR_NOT_INITIALIZED, "%s: the server is not initialized", method);
        return;
    }
    if (s->shut_down) {
        if (id) respond_error(s, id, ERR_INVALID_REQUEST, "%s: the server is shut down", method);
        return;
    }
    if (id) {
        if (strcmp(method, "initialize") == 0) on_initialize(s, id, params);
        else if (strcmp(method, "shutdown") == 0) { s->shut_down = 1; respond(s, id, json_null()); }
        else if (strcmp(method, "textDocument/codeAction") == 0) on_code_action(s, id, params);
        else if (strcmp(method, "textDocument/hover") == 0) on_hover(s, id, params);
        else respond_error(s, id, ERR_NO_METHOD, "%s: not a method cglint has", method);
        return;
    }
    if (strcmp(method, "initialized") == 0) {
        if (s->project && !s->warmed) {
            cg_project_warm(s->project);
            s->warmed = 1;
        }
        if (s->watch) register_watchers(s);
    } else if (strcmp(method, "textDocument/didOpen") == 0) {
        on_did_open(s, params);
    } else if (strcmp(method, "textDocument/didChange") == 0) {
        on_did_change(s, params);
    } else if (strcmp(method, "textDocument/didSave") == 0) {
        on_did_save(s, params);
    } else if (strcmp(method, "textDocument/didClose") == 0) {
        on_did_close(s, params);
    } else if (strcmp(method, "workspace/didChangeWatchedFiles") == 0) {
        on_watched_files(s, params);
    } else if (strcmp(method, "workspace/didChangeConfiguration") == 0) {
        settings(s, json_object_get(params, "settings"));
    }
    /* other notifications ($/cancelRequest, $/setTrace...) need nothing */
}

static const char server_usage[] =
    "Usage: cglint server [--unsafe-fixes]\n"
    "\n"
    "A language server: LSP over stdin and stdout, for editors (docs/editors.md).\n"
    "Diagnostics on open, change and save; the fixes as code actions (safe ones\n"
    "unless --unsafe-fixes, or the client's unsafeFixes setting); the rule page on\n"
    "hover.  The workspace root is read once at initialize.\n";

int cg_server_main(int argc, char **argv)
{
    server s = { .in_fd = STDIN_FILENO, .out_fd = STDOUT_FILENO, .enc = ENC_UTF16 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--unsafe-fixes") == 0) s.unsafe_fixes = 1;
        else if (strcmp(argv[i], "--stdio") == 0) continue;   /* what generic clients pass */
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) { fputs(server_usage, stdout); return 0; }
        else {
            fprintf(stderr, "cglint: error: server: unknown option '%s'\nRun 'cglint server --help' for usage.\n", argv[i]);
            return 2;
        }
    }
    int done = 0, code = 1;
    while (!done) {
        if (!input_waiting(&s)) analyse_dirty(&s);
        size_t len;
        int bad;
        char *body = read_message(&s, &len, &bad);
        if (!body) break;   /* end of input without exit: as an exit without shutdown */
        if (bad) {
            respond_error(&s, NULL, ERR_PARSE, "a message needs a Content-Length header");
            free(body);
            continue;
        }
        json_error_t jerr;
        json_t *msg = json_loadb(body, len, JSON_DECODE_ANY, &jerr);
        free(body);
        if (!msg) {
            respond_error(&s, NULL, ERR_PARSE, "not JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
            continue;
        }
        handle(&s, msg, &done, &code);
        json_decref(msg);
    }
    for (size_t i = 0; i < s.ndocs; i++) doc_free(s.docs[i]);
    free(s.docs);
    cg_project_free(s.project);
    if (s.configs) cg_configs_free(s.configs);
    free(s.root);
    free(s.buf);
    return code;
}
