/* toml.c - see toml.h.
 *
 * tree-sitter-toml 0.7.0 gives a flat document: top-level `pair`s, then
 * `table` and `table_array_element` nodes, each a key followed by its pairs.
 * Keys are `bare_key`, `quoted_key` or a left-nested `dotted_key`.  The
 * walk below turns that into nested cg_toml tables, TOML 1.0's semantics. */
#include "toml.h"
#include "core/alloc.h"
#include "arena.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cg_toml_doc {
    cg_arena *arena;
    cg_toml *root;
};

const cg_toml *cg_toml_get(const cg_toml *t, const char *key, uint32_t *line)
{
    if (!t || t->kind != CG_TOML_TABLE) return NULL;
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->keys[i], key) == 0) {
            if (line) *line = t->key_lines[i];
            return t->items[i];
        }
    return NULL;
}

const char *cg_toml_kind_name(cg_toml_kind kind)
{
    switch (kind) {
    case CG_TOML_STRING: return "a string";
    case CG_TOML_INTEGER: return "an integer";
    case CG_TOML_FLOAT: return "a float";
    case CG_TOML_BOOL: return "a boolean";
    case CG_TOML_DATETIME: return "a date-time";
    case CG_TOML_ARRAY: return "an array";
    case CG_TOML_TABLE: return "a table";
    }
    return "a value";
}

#ifdef CGLINT_HAVE_TOML
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_toml(void);

typedef struct toml_ctx {
    cg_arena *arena;
    const char *text;
    char *err;
    size_t errlen;
    uint32_t *err_line;
    int failed;
} toml_ctx;

static void toml_fail(toml_ctx *c, TSNode n, const char *fmt, const char *arg)
{
    if (c->failed) return;
    c->failed = 1;
    snprintf(c->err, c->errlen, fmt, arg);
    if (c->err_line) *c->err_line = ts_node_start_point(n).row + 1;
}

static const char *toml_node_text(toml_ctx *c, TSNode n, size_t *len)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    *len = e - s;
    return c->text + s;
}

static int toml_is(TSNode n, const char *type) { return strcmp(ts_node_type(n), type) == 0; }

static cg_toml *toml_new(toml_ctx *c, cg_toml_kind kind, TSNode at)
{
    cg_toml *v = cg_arena_alloc(c->arena, sizeof *v);
    v->kind = kind;
    v->line = ts_node_start_point(at).row + 1;
    return v;
}

static void toml_push(toml_ctx *c, cg_toml *t, const char *key, uint32_t line, cg_toml *v)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        cg_toml **items = cg_arena_alloc(c->arena, cap * sizeof *items);
        if (t->n) memcpy(items, t->items, t->n * sizeof *items);
        t->items = items;
        if (t->kind == CG_TOML_TABLE) {
            const char **keys = cg_arena_alloc(c->arena, cap * sizeof *keys);
            uint32_t *lines = cg_arena_alloc(c->arena, cap * sizeof *lines);
            if (t->n) {
                memcpy(keys, t->keys, t->n * sizeof *keys);
                memcpy(lines, t->key_lines, t->n * sizeof *lines);
            }
            t->keys = keys;
            t->key_lines = lines;
        }
        t->cap = cap;
    }
    if (t->kind == CG_TOML_TABLE) {
        t->keys[t->n] = key;
        t->key_lines[t->n] = line;
    }
    t->items[t->n++] = v;
}



/* ---- strings ------------------------------------------------------------------ */

static size_t toml_utf8_put(char *o, unsigned long cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decode a string node (any of the four quotings) into the arena. */
static const char *toml_string(toml_ctx *c, TSNode n)
{
    size_t len;
    const char *t = toml_node_text(c, n, &len);
    int literal = len && t[0] == '\'';
    size_t q = (len >= 6 && (memcmp(t, "\"\"\"", 3) == 0 || memcmp(t, "'''", 3) == 0)) ? 3 : 1;
    if (len < 2 * q) return cg_arena_strdup(c->arena, "");
    const char *s = t + q, *end = t + len - q;
    /* A newline right after the opening delimiter of a multi-line string is trimmed. */
    if (q == 3 && s < end && *s == '\n') s++;
    else if (q == 3 && s + 1 < end && s[0] == '\r' && s[1] == '\n') s += 2;
    char *out = cg_arena_alloc(c->arena, (size_t)(end - s) + 1), *o = out;
    while (s < end) {
        if (literal || *s != '\\') { *o++ = *s++; continue; }
        s++;
        if (s >= end) break;
        char e = *s++;
        switch (e) {
        case 'b': *o++ = '\b'; break;
        case 't': *o++ = '\t'; break;
        case 'n': *o++ = '\n'; break;
        case 'f': *o++ = '\f'; break;
        case 'r': *o++ = '\r'; break;
        case 'e': *o++ = '\x1b'; break;
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case 'u': case 'U': {
            int nd = e == 'u' ? 4 : 8;
            unsigned long cp = 0;
            int k;
            for (k = 0; k < nd && s < end; k++, s++) {
                char h = *s;
                int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (v < 0) break;
                cp = cp * 16 + (unsigned long)v;
            }
            if (k != nd || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                toml_fail(c, n, "invalid escape sequence \\%s in a string", e == 'u' ? "u" : "U");
                return "";
            }
            o += toml_utf8_put(o, cp);
            break;
        }
        default:
            if (q == 3 && (e == ' ' || e == '\t' || e == '\n' || e == '\r')) {
                /* line-ending backslash: trim whitespace up to the next content */
                s--;
                while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) s++;
            } else {
                char bad[2] = {e, 0};
                toml_fail(c, n, "invalid escape sequence \\%s in a string", bad);
                return "";
            }
        }
    }
    *o = 0;
    return out;
}

/* ---- keys ---------------------------------------------------------------------- */

#define TOML_MAX_KEY_PARTS 32

static const char *toml_simple_key(toml_ctx *c, TSNode k)
{
    if (toml_is(k, "quoted_key")) return toml_string(c, k);
    size_t len;
    const char *t = toml_node_text(c, k, &len);
    return cg_arena_strndup(c->arena, t, len);
}

/* Flatten a key node into parts; returns the count, or -1.  A dotted key is
 * left-nested, ((a.b).c).d, as deep as it has parts: walked in a loop. */
static int toml_key_parts(toml_ctx *c, TSNode k, const char **parts, int max)
{
    int n = 1;
    for (TSNode d = k; toml_is(d, "dotted_key"); d = ts_node_named_child(d, 0)) {
        if (ts_node_named_child_count(d) != 2) { toml_fail(c, d, "%s", "unexpected form of a dotted key"); return -1; }
        if (++n > max) { toml_fail(c, k, "%s", "key has too many dotted parts"); return -1; }
    }
    TSNode d = k;
    for (int i = n - 1; i > 0; i--) {
        parts[i] = toml_simple_key(c, ts_node_named_child(d, 1));
        d = ts_node_named_child(d, 0);
    }
    parts[0] = toml_simple_key(c, d);
    return c->failed ? -1 : n;
}

static char *toml_key_display(toml_ctx *c, const char **parts, int n)
{
    size_t total = 1;
    for (int i = 0; i < n; i++) total += strlen(parts[i]) + 1;
    char *s = cg_arena_alloc(c->arena, total), *o = s;
    for (int i = 0; i < n; i++) o += sprintf(o, "%s%s", i ? "." : "", parts[i]);
    return s;
}

/* The table at `key` inside t, created if missing.  For a header or a dotted
 * key's intermediate parts.  NULL (and an error) when something else is there. */
static cg_toml *toml_subtable(toml_ctx *c, cg_toml *t, const char *key, TSNode at, const char *full)
{
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->keys[i], key) != 0) continue;
        cg_toml *v = t->items[i];
        if (v->kind == CG_TOML_TABLE && !v->is_inline) return v;
        if (v->kind == CG_TOML_ARRAY && v->is_table_array && v->n) return v->items[v->n - 1];
        toml_fail(c, at, "'%s' is already defined as a value, so it cannot be a table", full);
        return NULL;
    }
    cg_toml *nt = toml_new(c, CG_TOML_TABLE, at);
    toml_push(c, t, key, ts_node_start_point(at).row + 1, nt);
    return nt;
}

/* ---- values ---------------------------------------------------------------------- */

/* Arrays and inline tables nest values; deeper than this is refused (the
 * walk recurses once a level). */
#define TOML_MAX_DEPTH 100

static cg_toml *toml_value(toml_ctx *c, TSNode n, int depth);
static void toml_pair(toml_ctx *c, cg_toml *table, TSNode pair, int depth);

static cg_toml *toml_number(toml_ctx *c, TSNode n, int is_float)
{
    size_t len;
    const char *t = toml_node_text(c, n, &len);
    char buf[128];
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < sizeof buf; i++)
        if (t[i] != '_') buf[k++] = t[i];
    buf[k] = 0;
    cg_toml *v = toml_new(c, is_float ? CG_TOML_FLOAT : CG_TOML_INTEGER, n);
    errno = 0;
    char *end;
    if (is_float) {
        const char *p = buf + (buf[0] == '+' || buf[0] == '-');
        if (strcmp(p, "inf") == 0) v->real = buf[0] == '-' ? -INFINITY : INFINITY;
        else if (strcmp(p, "nan") == 0) v->real = NAN;
        else v->real = strtod(buf, &end);
        return v;
    }
    int base = 10;
    const char *p = buf;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o' || p[1] == 'b')) {
        base = p[1] == 'x' ? 16 : p[1] == 'o' ? 8 : 2;
        p += 2;
    }
    v->integer = strtoll(p, &end, base);
    if (errno == ERANGE) toml_fail(c, n, "integer %s does not fit in 64 bits", buf);
    return v;
}

static cg_toml *toml_value(toml_ctx *c, TSNode n, int depth)
{
    const char *type = ts_node_type(n);
    if (depth >= TOML_MAX_DEPTH && (strcmp(type, "array") == 0 || strcmp(type, "inline_table") == 0)) {
        char msg[128];
        snprintf(msg, sizeof msg, "this value is too deeply nested (arrays and inline tables more than %d "
                 "levels deep)", TOML_MAX_DEPTH);
        toml_fail(c, n, "%s", msg);
        return NULL;
    }
    if (strcmp(type, "string") == 0) {
        cg_toml *v = toml_new(c, CG_TOML_STRING, n);
        v->str = toml_string(c, n);
        return v;
    }
    if (strcmp(type, "integer") == 0) return toml_number(c, n, 0);
    if (strcmp(type, "float") == 0) return toml_number(c, n, 1);
    if (strcmp(type, "boolean") == 0) {
        cg_toml *v = toml_new(c, CG_TOML_BOOL, n);
        size_t len;
        const char *t = toml_node_text(c, n, &len);
        v->integer = len == 4 && memcmp(t, "true", 4) == 0;
        return v;
    }
    if (strstr(type, "date") || strstr(type, "time")) {
        cg_toml *v = toml_new(c, CG_TOML_DATETIME, n);
        size_t len;
        const char *t = toml_node_text(c, n, &len);
        v->str = cg_arena_strndup(c->arena, t, len);
        return v;
    }
    if (strcmp(type, "array") == 0) {
        cg_toml *v = toml_new(c, CG_TOML_ARRAY, n);
        uint32_t cc = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < cc && !c->failed; i++) {
            TSNode ch = ts_node_named_child(n, i);
            if (toml_is(ch, "comment")) continue;
            cg_toml *item = toml_value(c, ch, depth + 1);
            if (item) toml_push(c, v, NULL, 0, item);
        }
        return v;
    }
    if (strcmp(type, "inline_table") == 0) {
        cg_toml *v = toml_new(c, CG_TOML_TABLE, n);
        uint32_t cc = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < cc && !c->failed; i++) {
            TSNode ch = ts_node_named_child(n, i);
            if (toml_is(ch, "pair")) toml_pair(c, v, ch, depth + 1);
        }
        v->is_inline = 1;
        return v;
    }
    toml_fail(c, n, "unexpected %s", type);
    return NULL;
}

/* key = value, in `table`; depth: how deep in inline tables the pair is. */
static void toml_pair(toml_ctx *c, cg_toml *table, TSNode pair, int depth)
{
    const char *parts[TOML_MAX_KEY_PARTS];
    TSNode key = ts_node_named_child(pair, 0);
    /* the value is the last named child that is not a trailing comment
     * (`line_length = 100  # black` puts the comment inside the pair) */
    uint32_t last = ts_node_named_child_count(pair);
    while (last > 1 && toml_is(ts_node_named_child(pair, last - 1), "comment")) last--;
    TSNode val = ts_node_named_child(pair, last - 1);
    int np = toml_key_parts(c, key, parts, TOML_MAX_KEY_PARTS);
    if (np <= 0 || c->failed) return;
    const char *full = toml_key_display(c, parts, np);
    cg_toml *t = table;
    for (int i = 0; i + 1 < np && t; i++) {
        t = toml_subtable(c, t, parts[i], key, full);
        if (t && t->explicit_header && t != table) {
            /* dotted keys may not extend a table defined by a header elsewhere */
        }
    }
    if (!t) return;
    uint32_t line;
    if (cg_toml_get(t, parts[np - 1], &line)) {
        char msg[160];
        snprintf(msg, sizeof msg, "key '%%s' is defined twice (first on line %u)", line);
        toml_fail(c, key, msg, full);
        return;
    }
    cg_toml *v = toml_value(c, val, depth);
    if (v) toml_push(c, t, parts[np - 1], ts_node_start_point(key).row + 1, v);
}

/* [a.b] or [[a.b]] with its pairs. */
static void toml_table(toml_ctx *c, cg_toml *root, TSNode n, int is_array)
{
    const char *parts[TOML_MAX_KEY_PARTS];
    TSNode key = ts_node_named_child(n, 0);
    int np = toml_key_parts(c, key, parts, TOML_MAX_KEY_PARTS);
    if (np <= 0 || c->failed) return;
    const char *full = toml_key_display(c, parts, np);
    cg_toml *t = root;
    for (int i = 0; i + 1 < np && t; i++) t = toml_subtable(c, t, parts[i], n, full);
    if (!t) return;
    const char *last = parts[np - 1];
    cg_toml *target = NULL;
    const cg_toml *existing = cg_toml_get(t, last, NULL);
    if (is_array) {
        cg_toml *arr = (cg_toml *)existing;
        if (!arr) {
            arr = toml_new(c, CG_TOML_ARRAY, n);
            arr->is_table_array = 1;
            toml_push(c, t, last, ts_node_start_point(n).row + 1, arr);
        } else if (arr->kind != CG_TOML_ARRAY || !arr->is_table_array) {
            toml_fail(c, n, "'%s' is already defined, so it cannot be an array of tables", full);
            return;
        }
        target = toml_new(c, CG_TOML_TABLE, n);
        toml_push(c, arr, NULL, 0, target);
    } else if (existing) {
        if (existing->kind != CG_TOML_TABLE || existing->is_inline) {
            toml_fail(c, n, "'%s' is already defined as a value, so it cannot be a table", full);
            return;
        }
        if (existing->explicit_header) {
            char msg[160];
            snprintf(msg, sizeof msg, "table [%%s] is defined twice (first on line %u)", existing->line);
            toml_fail(c, n, msg, full);
            return;
        }
        target = (cg_toml *)existing;
        target->line = ts_node_start_point(n).row + 1;
    } else {
        target = toml_subtable(c, t, last, n, full);
    }
    if (!target) return;
    target->explicit_header = 1;
    uint32_t cc = ts_node_named_child_count(n);
    for (uint32_t i = 1; i < cc && !c->failed; i++) {
        TSNode ch = ts_node_named_child(n, i);
        if (toml_is(ch, "pair")) toml_pair(c, target, ch, 0);
    }
}

/* First ERROR or MISSING node, for a precise syntax message: a walk down
 * the first child that has an error, in a loop (the tree may be deep). */
static int toml_first_error(TSNode root, TSNode *out)
{
    if (!ts_node_has_error(root)) return 0;
    TSNode n = root;
    for (;;) {
        if (ts_node_is_missing(n) || toml_is(n, "ERROR")) break;
        uint32_t cc = ts_node_child_count(n);
        TSNode next = n;
        for (uint32_t i = 0; i < cc; i++) {
            TSNode ch = ts_node_child(n, i);
            if (ts_node_has_error(ch)) { next = ch; break; }
        }
        if (ts_node_eq(next, n)) break;
        n = next;
    }
    *out = n;
    return 1;
}

/* How deep do brackets and braces nest, outside strings and comments?  Run
 * before tree-sitter: the tree-sitter 0.20 runtime frees the error-recovered
 * tree of 100,000 unclosed brackets badly, so text that nests deeper than any
 * configuration does never reaches it.  Returns the 1-based line where the
 * nesting first goes past `max`, or 0. */
static uint32_t toml_too_deep(const char *t, size_t len, int max)
{
    int depth = 0;
    uint32_t line = 1;
    for (size_t i = 0; i < len; i++) {
        char ch = t[i];
        if (ch == '\n') { line++; continue; }
        if (ch == '#') {
            while (i + 1 < len && t[i + 1] != '\n') i++;
            continue;
        }
        if (ch == '"' || ch == '\'') {
            int triple = i + 2 < len && t[i + 1] == ch && t[i + 2] == ch;
            for (i += triple ? 3 : 1; i < len; i++) {
                if (t[i] == '\n') {
                    line++;
                    if (!triple) break;   /* an unterminated string: tree-sitter says so */
                    continue;
                }
                if (ch == '"' && t[i] == '\\') {
                    if (i + 1 < len && t[i + 1] == '\n') line++;
                    i++;
                    continue;
                }
                if (t[i] != ch) continue;
                if (!triple) break;
                if (i + 2 < len && t[i + 1] == ch && t[i + 2] == ch) {
                    i += 2;
                    while (i + 1 < len && t[i + 1] == ch) i++;   /* up to two quotes end the content */
                    break;
                }
            }
            continue;
        }
        if (ch == '[' || ch == '{') {
            if (++depth > max) return line;
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            depth--;
        }
    }
    return 0;
}


/* ---- syntax errors people can act on ---------------------------------------------
 * tree-sitter says where its recovery began (often the line's first column)
 * and 0.20 cannot say which tokens it expected there.  So a document it
 * rejects is read again by this small recursive-descent reader of TOML's
 * syntax, which stops at the first token that cannot continue the document
 * and names what could have: "expected ']' to close the table header, found
 * end of line".  It only diagnoses; the tree is still what gets parsed. */
typedef struct toml_rd {
    const char *t;
    size_t len, i;
    uint32_t line;
    size_t line_start;
    const char *expected;   /* set at the first error */
    uint32_t eline, ecol;
    size_t epos;
    int depth;
} toml_rd;

static int rd_fail(toml_rd *r, const char *expected)
{
    if (!r->expected) {
        r->expected = expected;
        r->eline = r->line;
        r->epos = r->i;
        /* code points, 1-based */
        uint32_t col = 1;
        for (size_t k = r->line_start; k < r->i && k < r->len; k++)
            if (((unsigned char)r->t[k] & 0xc0) != 0x80) col++;
        r->ecol = col;
    }
    return -1;
}

static int rd_peek(const toml_rd *r, size_t k) { return r->i + k < r->len ? (unsigned char)r->t[r->i + k] : -1; }
static void rd_ws(toml_rd *r) { while (rd_peek(r, 0) == ' ' || rd_peek(r, 0) == '\t') r->i++; }
static void rd_newline(toml_rd *r) { r->i++; r->line++; r->line_start = r->i; }
static void rd_comment(toml_rd *r) { if (rd_peek(r, 0) == '#') while (r->i < r->len && r->t[r->i] != '\n') r->i++; }
/* whitespace, comments and newlines (inside arrays) */
static void rd_blank(toml_rd *r)
{
    for (;;) {
        rd_ws(r);
        rd_comment(r);
        if (rd_peek(r, 0) == '\r' && rd_peek(r, 1) == '\n') r->i++;
        if (rd_peek(r, 0) != '\n') return;
        rd_newline(r);
    }
}
static int rd_bare(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; }

static int rd_string(toml_rd *r)
{
    int q = rd_peek(r, 0);
    int triple = rd_peek(r, 1) == q && rd_peek(r, 2) == q;
    r->i += triple ? 3 : 1;
    for (;;) {
        int c = rd_peek(r, 0);
        if (c < 0) return rd_fail(r, q == '"' ? "a closing '\"'" : "a closing \"'\"");
        if (c == '\n') {
            if (!triple) return rd_fail(r, q == '"' ? "a closing '\"' before the end of the line"
                                                    : "a closing \"'\" before the end of the line");
            rd_newline(r);
            continue;
        }
        if (c == q) {
            if (!triple) { r->i++; return 0; }
            if (rd_peek(r, 1) == q && rd_peek(r, 2) == q) {
                r->i += 3;
                while (rd_peek(r, 0) == q) r->i++;
                return 0;
            }
        }
        if (c == '\\' && q == '"') {
            int e = rd_peek(r, 1);
            if (e && strchr("btnfr\"\\", e)) { r->i += 2; continue; }
            if (e == 'u' || e == 'U') {
                int n = e == 'u' ? 4 : 8;
                for (int k = 0; k < n; k++)
                    if (!isxdigit(rd_peek(r, 2 + k))) { r->i += 2 + k; return rd_fail(r, "a hexadecimal digit of a \\u escape"); }
                r->i += 2 + n;
                continue;
            }
            if (triple && (e == '\n' || e == ' ' || e == '\t' || e == '\r')) { r->i++; continue; }
            return rd_fail(r, "an escape: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX or \\UXXXXXXXX");
        }
        r->i++;
    }
}

static int rd_key(toml_rd *r)
{
    for (;;) {
        rd_ws(r);
        int c = rd_peek(r, 0);
        if (c == '"' || c == '\'') {
            if (rd_peek(r, 1) == c && rd_peek(r, 2) == c) return rd_fail(r, "a key (a multi-line string cannot be one)");
            if (rd_string(r) < 0) return -1;
        } else if (rd_bare(c)) {
            while (rd_bare(rd_peek(r, 0))) r->i++;
        } else {
            return rd_fail(r, "a key");
        }
        rd_ws(r);
        if (rd_peek(r, 0) != '.') return 0;
        r->i++;
    }
}

static int rd_value(toml_rd *r);

static int rd_array(toml_rd *r)
{
    r->i++;
    for (;;) {
        rd_blank(r);
        if (rd_peek(r, 0) == ']') { r->i++; return 0; }
        if (rd_value(r) < 0) return -1;
        rd_blank(r);
        if (rd_peek(r, 0) == ',') { r->i++; continue; }
        if (rd_peek(r, 0) == ']') { r->i++; return 0; }
        return rd_fail(r, "',' or ']' after an array item");
    }
}

static int rd_inline_table(toml_rd *r)
{
    r->i++;
    rd_ws(r);
    if (rd_peek(r, 0) == '}') { r->i++; return 0; }
    for (;;) {
        if (rd_key(r) < 0) return -1;
        if (rd_peek(r, 0) != '=') return rd_fail(r, "'=' after the key");
        r->i++;
        rd_ws(r);
        if (rd_value(r) < 0) return -1;
        rd_ws(r);
        if (rd_peek(r, 0) == ',') { r->i++; continue; }
        if (rd_peek(r, 0) == '}') { r->i++; return 0; }
        return rd_fail(r, "',' or '}' in an inline table (which must stay on one line)");
    }
}

static int rd_value(toml_rd *r)
{
    if (++r->depth > TOML_MAX_DEPTH) return rd_fail(r, "less nesting");
    int c = rd_peek(r, 0), rc = 0;
    if (c == '"' || c == '\'') rc = rd_string(r);
    else if (c == '[') rc = rd_array(r);
    else if (c == '{') rc = rd_inline_table(r);
    else if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'i' || c == 'n' || c == 't' || c == 'f') {
        size_t s = r->i;
        while (rd_bare(rd_peek(r, 0)) || rd_peek(r, 0) == '.' || rd_peek(r, 0) == ':' || rd_peek(r, 0) == '+' ||
               (rd_peek(r, 0) == ' ' && rd_peek(r, 1) >= '0' && rd_peek(r, 1) <= '9' && r->i - s == 10))
            r->i++;
        size_t n = r->i - s;
        const char *w = r->t + s;
        int word = (n == 4 && !memcmp(w, "true", 4)) || (n == 5 && !memcmp(w, "false", 5)) ||
                   (n >= 3 && (!memcmp(w + n - 3, "inf", 3) || !memcmp(w + n - 3, "nan", 3)));
        if (!word && !(w[0] >= '0' && w[0] <= '9') && !((w[0] == '+' || w[0] == '-') && n > 1 && w[1] >= '0' && w[1] <= '9')) {
            r->i = s;
            rc = rd_fail(r, "a value: a \"string\", a number, true, false, an [array] or an {inline table}");
        }
    } else {
        rc = rd_fail(r, "a value: a \"string\", a number, true, false, an [array] or an {inline table}");
    }
    r->depth--;
    return rc;
}

static int rd_end_of_line(toml_rd *r, const char *after)
{
    rd_ws(r);
    rd_comment(r);
    if (rd_peek(r, 0) == '\r' && rd_peek(r, 1) == '\n') r->i++;
    if (rd_peek(r, 0) < 0) return 0;
    if (rd_peek(r, 0) == '\n') { rd_newline(r); return 0; }
    return rd_fail(r, after);
}

/* 1 with the place and the expectation when the reader finds an error. */
static int toml_diagnose(const char *t, size_t len, uint32_t *line, uint32_t *col, const char **expected,
                         char *found, size_t foundlen)
{
    toml_rd r = { .t = t, .len = len, .line = 1 };
    while (r.i < r.len && !r.expected) {
        rd_blank(&r);
        int c = rd_peek(&r, 0);
        if (c < 0) break;
        if (c == '[') {
            int arr = rd_peek(&r, 1) == '[';
            r.i += arr ? 2 : 1;
            if (rd_key(&r) < 0) break;
            if (rd_peek(&r, 0) != ']' || (arr && rd_peek(&r, 1) != ']')) {
                rd_fail(&r, arr ? "']]' to close the array-of-tables header" : "']' to close the table header");
                break;
            }
            r.i += arr ? 2 : 1;
            if (rd_end_of_line(&r, "the end of the line after the table header") < 0) break;
            continue;
        }
        if (rd_key(&r) < 0) break;
        if (rd_peek(&r, 0) != '=') { rd_fail(&r, "'=' after the key"); break; }
        r.i++;
        rd_ws(&r);
        if (rd_value(&r) < 0) break;
        rd_end_of_line(&r, "the end of the line (or a # comment) after the value");
    }
    if (!r.expected) return 0;
    *line = r.eline;
    *col = r.ecol;
    if (r.epos >= len) {
        /* the end of the file: point just after its last character, not at
         * the empty line after its final newline */
        size_t e = len;
        while (e > 0 && (t[e - 1] == '\n' || t[e - 1] == '\r')) e--;
        uint32_t l = 1, c = 1;
        for (size_t k = 0; k < e; k++) {
            if (t[k] == '\n') { l++; c = 1; }
            else if (((unsigned char)t[k] & 0xc0) != 0x80) c++;
        }
        *line = l;
        *col = c;
    }
    *expected = r.expected;
    size_t p = r.epos;
    if (p >= len) snprintf(found, foundlen, "the end of the file");
    else if (t[p] == '\n' || t[p] == '\r') snprintf(found, foundlen, "the end of the line");
    else {
        size_t n = 0;
        while (p + n < len && n < 12 && t[p + n] != '\n' && t[p + n] != '\r' && (n == 0 || (rd_bare(t[p]) && rd_bare(t[p + n])))) n++;
        while (n > 0 && p + n < len && ((unsigned char)t[p + n] & 0xc0) == 0x80) n--;
        if (!n) n = 1;
        if (t[p] == '\\' && p + 1 < len && t[p + 1] != '\n') n = 2;   /* an escape: '\q' */
        char tok[16];
        size_t k = 0;
        for (size_t j = 0; j < n && k + 1 < sizeof tok; j++)
            tok[k++] = (unsigned char)t[p + j] < 0x20 ? '?' : t[p + j];
        tok[k] = 0;
        snprintf(found, foundlen, "'%s'", tok);
    }
    return 1;
}

#endif /* CGLINT_HAVE_TOML */

#ifndef CGLINT_HAVE_TOML
/* A build without the analyzers (CGLINT_ANALYZERS=OFF, the GPU machine's
 * `cglint run`) has no TOML grammar: configuration files are not read. */
cg_toml_doc *cg_toml_parse(const char *text, size_t len, char *err, size_t errlen, uint32_t *err_line)
{
    (void)text; (void)len;
    if (err_line) *err_line = 0;
    snprintf(err, errlen, "this cglint was built without the analyzers (CGLINT_ANALYZERS=OFF) and "
             "reads no configuration files; pass --isolated");
    return NULL;
}
#else
cg_toml_doc *cg_toml_parse(const char *text, size_t len, char *err, size_t errlen, uint32_t *err_line)
{
    if (err_line) *err_line = 0;
    TSParser *parser = ts_parser_new();
    if (!ts_parser_set_language(parser, tree_sitter_toml())) {
        snprintf(err, errlen, "the tree-sitter-toml grammar has ABI version %u, which this "
                 "tree-sitter runtime cannot read; rebuild with tree-sitter-toml 0.7.0 "
                 "(grammars/CMakeLists.txt)", ts_language_version(tree_sitter_toml()));
        ts_parser_delete(parser);
        return NULL;
    }
    uint32_t deep = toml_too_deep(text, len, TOML_MAX_DEPTH);
    if (deep) {
        snprintf(err, errlen, "too deeply nested (arrays and inline tables more than %d levels deep)",
                 TOML_MAX_DEPTH);
        if (err_line) *err_line = deep;
        ts_parser_delete(parser);
        return NULL;
    }
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
    ts_parser_delete(parser);
    if (!tree) {
        snprintf(err, errlen, "could not parse the file");
        return NULL;
    }
    TSNode root = ts_tree_root_node(tree);
    TSNode bad;
    if (toml_first_error(root, &bad)) {
        TSPoint p = ts_node_start_point(bad);
        uint32_t dl, dc;
        const char *want;
        char found[64];
        if (toml_diagnose(text, len, &dl, &dc, &want, found, sizeof found)) {
            snprintf(err, errlen, "invalid TOML at column %u: expected %s, found %s", dc, want, found);
            if (err_line) *err_line = dl;
            ts_tree_delete(tree);
            return NULL;
        }
        if (ts_node_is_missing(bad))
            snprintf(err, errlen, "invalid TOML: missing %s at column %u", ts_node_type(bad), p.column + 1);
        else
            snprintf(err, errlen, "invalid TOML at column %u", p.column + 1);
        if (err_line) *err_line = p.row + 1;
        ts_tree_delete(tree);
        return NULL;
    }
    cg_toml_doc *doc = cg_xcalloc(1, sizeof *doc);
    doc->arena = cg_arena_new();
    toml_ctx c = { doc->arena, text, err, errlen, err_line, 0 };
    doc->root = toml_new(&c, CG_TOML_TABLE, root);
    uint32_t cc = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < cc && !c.failed; i++) {
        TSNode ch = ts_node_named_child(root, i);
        if (toml_is(ch, "pair")) toml_pair(&c, doc->root, ch, 0);
        else if (toml_is(ch, "table")) toml_table(&c, doc->root, ch, 0);
        else if (toml_is(ch, "table_array_element")) toml_table(&c, doc->root, ch, 1);
    }
    ts_tree_delete(tree);
    if (c.failed) {
        cg_toml_free(doc);
        return NULL;
    }
    return doc;
}

#endif /* CGLINT_HAVE_TOML */

void cg_toml_free(cg_toml_doc *self)
{
    if (!self) return;
    cg_arena_free(self->arena);
    free(self);
}

const cg_toml *cg_toml_root(const cg_toml_doc *self) { return self ? self->root : NULL; }
