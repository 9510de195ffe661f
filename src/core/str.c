/* str.c - see str.h. */
#include "str.h"
#include <stdlib.h>

char *cg_snippet(cg_arena *arena, const char *text, size_t len, size_t max)
{
    const char *nl = memchr(text, '\n', len);
    int cut = 0;
    if (nl) { len = (size_t)(nl - text); cut = 1; }
    if (len > max) { len = max - 3; cut = 1; }
    /* don't cut inside a UTF-8 sequence: back off continuation bytes */
    while (cut && len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80) len--;
    return cg_arena_printf(arena, "%.*s%s", (int)len, text, cut ? "..." : "");
}

static char *snippet_code(cg_arena *arena, const char *text, size_t len, size_t max, int py);

char *cg_snippet_code(cg_arena *arena, const char *text, size_t len, size_t max, int py)
{
    /* whole when it fits; cut (with room kept for "..." and the closers) only when not */
    char *whole = snippet_code(arena, text, len, (size_t)-1 / 2, py);
    if (!whole || strlen(whole) <= max) return whole;
    return snippet_code(arena, text, len, max, py);
}

static char *snippet_code(cg_arena *arena, const char *text, size_t len, size_t max, int py)
{
    /* raw malloc: on failure the plain snippet below is good enough */
    char *out = malloc(len + 1);
    if (!out) return cg_snippet(arena, text, len, max);
    char stack[64];           /* open brackets */
    int depth = 0, safe_depth = 0, space = 0;
    size_t o = 0, safe = 0;   /* the last place a cut may go, and its depth */
    int cut = 0;
    for (size_t i = 0; i < len && !cut;) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || (c == '\\' && i + 1 < len && text[i + 1] == '\n')) {
            space = 1;
            i += c == '\\' ? 2 : 1;
            continue;
        }
        if ((py && c == '#') || (!py && c == '/' && i + 1 < len && text[i + 1] == '/')) {
            while (i < len && text[i] != '\n') i++;
            space = 1;
            continue;
        }
        if (!py && c == '/' && i + 1 < len && text[i + 1] == '*') {
            const char *e = NULL;
            for (size_t k = i + 2; k + 1 < len; k++)
                if (text[k] == '*' && text[k + 1] == '/') { e = text + k + 2; break; }
            i = e ? (size_t)(e - text) : len;
            space = 1;
            continue;
        }
        /* a token: a string (with its prefix letters already out), or one byte */
        size_t start = i, end = i + 1;
        if (c == '"' || c == '\'') {
            int triple = py && i + 2 < len && text[i + 1] == c && text[i + 2] == c;
            end = i + (triple ? 3 : 1);
            while (end < len) {
                if (text[end] == '\\') { end += 2; continue; }
                if (text[end] == c && (!triple || (end + 2 < len && text[end + 1] == c && text[end + 2] == c))) {
                    end += triple ? 3 : 1;
                    break;
                }
                if (text[end] == '\n' && !triple) break;
                end++;
            }
            if (end > len) end = len;
        } else if (c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || (unsigned char)c >= 0x80) {
            /* a name or a number, whole (a cut never splits one) */
            while (end < len && (text[end] == '_' || (text[end] >= '0' && text[end] <= '9') ||
                                 ((text[end] | 32) >= 'a' && (text[end] | 32) <= 'z') || (unsigned char)text[end] >= 0x80))
                end++;
        }
        int opener = c == '(' || c == '[' || c == '{', closer = c == ')' || c == ']' || c == '}';
        int want_space = space && o && !closer && c != ',' && c != '.' && !strchr("([{", out[o - 1]) &&
                         !(out[o - 1] == '.' );
        size_t need = (size_t)(want_space) + (end - start);
        if (o + need + 3 + (size_t)depth > max && o) { cut = 1; break; }
        /* a trailing comma before a line break and the closer: `f(a,\n)` reads `f(a)` */
        if (closer && space && o && out[o - 1] == ',') o--;
        if (want_space) out[o++] = ' ';
        for (size_t k = start; k < end; k++) out[o++] = text[k] == '\n' ? ' ' : text[k];
        i = end;
        space = 0;
        if (opener && depth < 64) stack[depth++] = c;
        else if (closer && depth > 0) depth--;
        if (c != '.') {   /* "torch...." reads badly: no cut right after a dot */
            safe = o;
            safe_depth = depth;
        }
    }
    if (cut) {
        o = safe;
        depth = safe_depth;
        while (o && out[o - 1] == ' ') o--;
    }
    char *res = cg_arena_alloc(arena, o + 3 + (size_t)depth + 1);
    memcpy(res, out, o);
    size_t r = o;
    if (cut) { memcpy(res + r, "...", 3); r += 3; }
    while (depth > 0) {
        char open = stack[--depth];
        res[r++] = open == '(' ? ')' : open == '[' ? ']' : '}';
    }
    res[r] = 0;
    free(out);
    return res;
}
