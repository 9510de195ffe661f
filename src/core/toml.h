/* toml.h - a TOML document as a small tree of values, parsed with the
 * tree-sitter-toml grammar.
 *
 * The grammar only checks syntax; this layer builds the tables (dotted keys,
 * [table] and [[array]] headers, inline tables), decodes strings and numbers,
 * and refuses what TOML forbids that a grammar cannot see: a key defined
 * twice, a table header repeated, a value redefined as a table.  Every value
 * remembers its 1-based line, so the configuration loader can name the line
 * of a key it rejects.
 *
 * Ownership: everything returned lives in the document's arena and is freed
 * by cg_toml_free(). */
#ifndef CG_TOML_H
#define CG_TOML_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    CG_TOML_STRING, CG_TOML_INTEGER, CG_TOML_FLOAT, CG_TOML_BOOL,
    CG_TOML_DATETIME, CG_TOML_ARRAY, CG_TOML_TABLE,
} cg_toml_kind;

typedef struct cg_toml cg_toml;
struct cg_toml {
    cg_toml_kind kind;
    uint32_t line;          /* where the value (a table: its header or first key) is */
    const char *str;        /* STRING: decoded, NUL-terminated; DATETIME: its text */
    long long integer;      /* INTEGER, BOOL (0/1) */
    double real;            /* FLOAT */
    cg_toml **items;        /* ARRAY items; TABLE values, in definition order */
    const char **keys;      /* TABLE keys, parallel to items */
    uint32_t *key_lines;    /* TABLE: the line of each key */
    size_t n, cap;
    int explicit_header;    /* TABLE: defined by a [header] (a second one is an error) */
    int is_inline;          /* TABLE: an inline table, closed to later keys */
    int is_table_array;     /* ARRAY: made by [[header]] */
};

typedef struct cg_toml_doc cg_toml_doc;

/* Parse `len` bytes of `text`.  Returns the document, or NULL with one
 * sentence in err and the 1-based line of the problem in *err_line (0 when
 * not about a line). */
cg_toml_doc *cg_toml_parse(const char *text, size_t len, char *err, size_t errlen,
                           uint32_t *err_line);
void cg_toml_free(cg_toml_doc *self);
/* The root table. */
const cg_toml *cg_toml_root(const cg_toml_doc *self);
/* Value of `key` in a table, or NULL; *line (optional) gets the key's line. */
const cg_toml *cg_toml_get(const cg_toml *table, const char *key, uint32_t *line);
/* "a string", "an integer", ... for messages. */
const char *cg_toml_kind_name(cg_toml_kind kind);
#endif
