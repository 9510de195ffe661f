/* str.c - see str.h. */
#include "str.h"

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
