/* py_parse.c - tree-sitter glue: grammar check, symbols, parsing, node text. */
#include "py_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

py_grammar PY;
static pthread_once_t grammar_once = PTHREAD_ONCE_INIT;
static int grammar_rc;
static char grammar_err[256];

static TSSymbol sym(const TSLanguage *l, const char *name, int named)
{
    return ts_language_symbol_for_name(l, name, (uint32_t)strlen(name), named);
}

static TSFieldId fld(const TSLanguage *l, const char *name)
{
    return ts_language_field_id_for_name(l, name, (uint32_t)strlen(name));
}

static void grammar_setup(void)
{
    const TSLanguage *l = tree_sitter_python();
    TSParser *parser = ts_parser_new();
    /* Debian's runtime reads ABI 13-14; a grammar built for ABI 15 (tree-sitter-
     * python >= 0.25) is refused here rather than crashing later. */
    if (!ts_parser_set_language(parser, l)) {
        snprintf(grammar_err, sizeof grammar_err,
                 "the tree-sitter-python grammar has ABI version %u but this tree-sitter runtime "
                 "reads ABI %u-%u; rebuild with tree-sitter-python 0.23.x (grammars/CMakeLists.txt)",
                 ts_language_version(l), TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
                 TREE_SITTER_LANGUAGE_VERSION);
        grammar_rc = -1;
        ts_parser_delete(parser);
        return;
    }
    ts_parser_delete(parser);
#define S(f, n) PY.f = sym(l, n, 1)
    S(module, "module"); S(block, "block"); S(expression_statement, "expression_statement");
    S(call, "call"); S(attribute, "attribute"); S(identifier, "identifier");
    S(argument_list, "argument_list"); S(keyword_argument, "keyword_argument");
    S(with_statement, "with_statement"); S(with_clause, "with_clause"); S(with_item, "with_item");
    S(assignment, "assignment"); S(augmented_assignment, "augmented_assignment");
    S(subscript, "subscript"); S(slice, "slice"); S(if_statement, "if_statement");
    S(elif_clause, "elif_clause"); S(else_clause, "else_clause"); S(for_statement, "for_statement");
    S(while_statement, "while_statement"); S(try_statement, "try_statement");
    S(function_definition, "function_definition"); S(class_definition, "class_definition");
    S(decorated_definition, "decorated_definition"); S(import_statement, "import_statement");
    S(import_from_statement, "import_from_statement"); S(aliased_import, "aliased_import");
    S(dotted_name, "dotted_name"); S(relative_import, "relative_import");
    S(import_prefix, "import_prefix"); S(return_statement, "return_statement");
    S(global_statement, "global_statement"); S(assert_statement, "assert_statement");
    S(conditional_expression, "conditional_expression"); S(boolean_operator, "boolean_operator");
    S(not_operator, "not_operator"); S(comparison_operator, "comparison_operator");
    S(binary_operator, "binary_operator"); S(unary_operator, "unary_operator");
    S(parenthesized_expression, "parenthesized_expression"); S(string, "string");
    S(interpolation, "interpolation"); S(concatenated_string, "concatenated_string");
    S(integer, "integer"); S(float_, "float"); S(true_, "true"); S(false_, "false");
    S(none, "none"); S(list, "list"); S(dictionary, "dictionary"); S(set, "set");
    S(tuple, "tuple"); S(list_comprehension, "list_comprehension");
    S(dictionary_comprehension, "dictionary_comprehension");
    S(set_comprehension, "set_comprehension"); S(generator_expression, "generator_expression");
    S(for_in_clause, "for_in_clause"); S(if_clause, "if_clause"); S(lambda, "lambda");
    S(pattern_list, "pattern_list"); S(tuple_pattern, "tuple_pattern");
    S(expression_list, "expression_list"); S(typed_parameter, "typed_parameter");
    S(default_parameter, "default_parameter"); S(typed_default_parameter, "typed_default_parameter");
    S(parameters, "parameters"); S(list_splat, "list_splat"); S(dictionary_splat, "dictionary_splat");
    S(list_splat_pattern, "list_splat_pattern"); S(dictionary_splat_pattern, "dictionary_splat_pattern");
    S(comment, "comment"); S(except_clause, "except_clause"); S(finally_clause, "finally_clause");
    S(raise_statement, "raise_statement"); S(pass_statement, "pass_statement");
    S(decorator, "decorator"); S(type, "type"); S(wildcard_import, "wildcard_import");
    S(delete_statement, "delete_statement"); S(named_expression, "named_expression");
    S(await_, "await"); S(match_statement, "match_statement");
    S(nonlocal_statement, "nonlocal_statement"); S(future_import_statement, "future_import_statement");
    S(pair, "pair"); S(generic_type, "generic_type"); S(as_pattern, "as_pattern");
#undef S
#define F(f, n) PY.f = fld(l, n)
    F(f_function, "function"); F(f_arguments, "arguments"); F(f_object, "object");
    F(f_attribute, "attribute"); F(f_name, "name"); F(f_value, "value"); F(f_body, "body");
    F(f_left, "left"); F(f_right, "right"); F(f_condition, "condition");
    F(f_consequence, "consequence"); F(f_alternative, "alternative");
    F(f_parameters, "parameters"); F(f_superclasses, "superclasses");
    F(f_module_name, "module_name"); F(f_alias, "alias"); F(f_subscript, "subscript");
    F(f_argument, "argument"); F(f_operator, "operator"); F(f_definition, "definition");
    F(f_type, "type"); F(f_expression, "expression"); F(f_return_type, "return_type");
    F(f_key, "key");
#undef F
    if (!PY.call || !PY.with_statement || !PY.f_function) {
        snprintf(grammar_err, sizeof grammar_err,
                 "the tree-sitter-python grammar lacks node types cglint needs (call, with_statement); "
                 "use tree-sitter-python 0.23.x");
        grammar_rc = -1;
    }
}

int py_grammar_init(char *err, size_t errlen)
{
    pthread_once(&grammar_once, grammar_setup);
    if (grammar_rc) snprintf(err, errlen, "%s", grammar_err);
    return grammar_rc;
}

int cg_py_init(char *err, size_t errlen) { return py_grammar_init(err, errlen); }

/* First ERROR or MISSING node in document order, for one precise message. */
static int first_error(TSNode n, TSNode *out, int depth)
{
    if (!py_has_error(n)) return 0;
    if (strcmp(py_type(n), "ERROR") == 0 || py_is_missing(n)) { *out = n; return 1; }
    if (depth > 10000) { *out = n; return 1; }
    uint32_t c = py_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (first_error(py_child(n, i), out, depth + 1)) return 1;
    *out = n;
    return 1;
}

static void mark_error_lines(TSNode n, unsigned char *lines, uint32_t nlines, int depth)
{
    if (!py_has_error(n) || depth > 10000) return;
    if (strcmp(py_type(n), "ERROR") == 0 || py_is_missing(n)) {
        uint32_t a = py_start_point(n).row, b = py_end_point(n).row;
        for (uint32_t r = a; r <= b && r < nlines; r++) lines[r] = 1;
        return;
    }
    uint32_t c = py_child_count(n);
    for (uint32_t i = 0; i < c; i++) mark_error_lines(py_child(n, i), lines, nlines, depth + 1);
}

/* tree-sitter-python 0.23.6 (the newest grammar Debian's runtime reads) cannot
 * parse a starred bracket in an unparenthesised tuple: `return None, *(x,) * n`,
 * `y = a, *[b]`, valid since Python 3.5 and in real code (Megatron-LM).  On the
 * lines with parse errors, `, *(` and `, *[` become `,  (` / `,  [`: the same
 * length, so every offset and line stays true, and the tree keeps the starred
 * expression as a tuple element.  The rewritten tree is used only when it
 * parses without any error.  Returns it, or NULL. */
static TSTree *edited_copy(const TSTree *old, const char *otext, size_t olen, const char *text, size_t len);

/* Is copy[i] the `*` of `, *(` or `, *[` (spaces allowed around it) on the
 * line [a, b)? */
static int star_rewritable(const char *copy, size_t a, size_t b, size_t i)
{
    if (copy[i] != '*' || i + 1 >= b || (copy[i + 1] != '(' && copy[i + 1] != '[' && copy[i + 1] != ' '))
        return 0;
    size_t k = i + 1;
    while (k < b && copy[k] == ' ') k++;
    if (k >= b || (copy[k] != '(' && copy[k] != '[')) return 0;
    size_t j = i;
    while (j > a && copy[j - 1] == ' ') j--;
    return j != a && copy[j - 1] == ',';
}

static TSTree *parse_grammar_limits(const py_module *m, TSTree *tree, const TSTree *old_fixed,
                                    const char *old_text, size_t old_len, char **rewritten)
{
    const cg_source *src = &m->src;
    if (rewritten) *rewritten = NULL;
    if (!src->nlines || !memchr(src->text, '*', src->len)) return NULL;
    unsigned char *lines = calloc(src->nlines + 1, 1);
    char *copy = malloc(src->len + 1);
    TSTree *fixed = NULL;
    if (!lines || !copy) goto done;
    mark_error_lines(ts_tree_root_node(tree), lines, src->nlines, 0);
    memcpy(copy, src->text, src->len + 1);
    int changed = 0;
    for (uint32_t r = 0; r < src->nlines; r++) {
        if (!lines[r]) continue;
        size_t a = src->line_start[r], b = r + 1 < src->nlines ? src->line_start[r + 1] : src->len;
        for (size_t i = a; i < b; i++)
            if (star_rewritable(copy, a, b, i)) {
                copy[i] = ' ';
                changed = 1;
            }
    }
    if (!changed) goto done;
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    ts_parser_set_timeout_micros(parser, 10u * 1000u * 1000u);
    /* the server's cache: the rewritten text of the last parse, edited */
    TSTree *base = old_fixed && old_text ? edited_copy(old_fixed, old_text, old_len, copy, src->len) : NULL;
    fixed = ts_parser_parse_string(parser, base, copy, (uint32_t)src->len);
    if (base) ts_tree_delete(base);
    ts_parser_delete(parser);
    if (fixed && py_has_error(ts_tree_root_node(fixed))) {
        ts_tree_delete(fixed);
        fixed = NULL;
    }
done:
    free(lines);
    if (fixed && rewritten) *rewritten = copy;
    else free(copy);
    return fixed;
}

/* ---- the tree cache (cglint server) ------------------------------------------
 * Trees by path and content digest: a re-analysis of a project whose files
 * did not change takes each reached module's tree from here instead of
 * parsing it again.  tree-sitter trees are immutable; the cache keeps one
 * and hands out copies (ts_tree_copy: a reference count). */
typedef struct cache_entry {
    char *path;
    uint64_t digest;
    TSTree *tree;            /* the tree the analysis uses */
    TSTree *raw;             /* the parse of `text` (== tree unless parse_grammar_limits rewrote it) */
    char *text;              /* the source: an edit of it is parsed incrementally from raw */
    size_t len;
    char *fixed_text;        /* the rewritten source `tree` is the parse of, or NULL */
    size_t fixed_len;
} cache_entry;
struct cg_py_cache {
    pthread_mutex_t lock;
    cg_map by_path;          /* path -> cache_entry* */
    cache_entry **all;
    size_t n, cap;
    py_keep *keep;           /* the modules' indexes (py_keep.c) */
};

py_keep *py_cache_keep(cg_py_cache *c) { return c ? c->keep : NULL; }

cg_py_cache *cg_py_cache_new(void)
{
    cg_py_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->keep = py_keep_new();
    pthread_mutex_init(&c->lock, NULL);
    cg_map_init(&c->by_path);
    return c;
}

void cg_py_cache_free(cg_py_cache *c)
{
    if (!c) return;
    py_keep_free(c->keep);
    for (size_t i = 0; i < c->n; i++) {
        ts_tree_delete(c->all[i]->tree);
        if (c->all[i]->raw) ts_tree_delete(c->all[i]->raw);
        free(c->all[i]->fixed_text);
        free(c->all[i]->text);
        free(c->all[i]->path);
        free(c->all[i]);
    }
    free(c->all);
    cg_map_free(&c->by_path);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

size_t cg_py_cache_size(const cg_py_cache *c)
{
    return c ? c->n : 0;
}

static TSPoint point_at(const char *t, size_t off)
{
    TSPoint pt = { 0, 0 };
    const char *nl = NULL;
    for (const char *q = t; (q = memchr(q, '\n', (size_t)(t + off - q))); q++) { pt.row++; nl = q; }
    pt.column = (uint32_t)(nl ? (size_t)(t + off - nl - 1) : off);
    return pt;
}

/* A copy of `old` (the parse of otext) edited to be the parse of `text`
 * as far as it can: the one span between their common prefix and suffix
 * changed.  ts_parser_parse with it re-parses only around that span. */
static TSTree *edited_copy(const TSTree *old, const char *otext, size_t olen, const char *text, size_t len)
{
    size_t pre = 0, suf = 0;
    while (pre < olen && pre < len && otext[pre] == text[pre]) pre++;
    while (suf < olen - pre && suf < len - pre && otext[olen - 1 - suf] == text[len - 1 - suf]) suf++;
    TSInputEdit ed = { .start_byte = (uint32_t)pre, .old_end_byte = (uint32_t)(olen - suf),
                       .new_end_byte = (uint32_t)(len - suf), .start_point = point_at(text, pre),
                       .old_end_point = point_at(otext, olen - suf), .new_end_point = point_at(text, len - suf) };
    TSTree *t = ts_tree_copy(old);
    ts_tree_edit(t, &ed);
    return t;
}

/* What the cache has for `path`: the tree itself when the digest matches
 * (*exact = 1); else, for incremental parses, the old raw tree edited to
 * the new text and the old rewritten tree and text (copies), or NULLs. */
typedef struct cached {
    TSTree *base, *fixed;
    char *fixed_text;
    size_t fixed_len;
    /* the last parse needed parse_grammar_limits: the new text with the same
     * stars rewritten (where they still are), and the old rewritten tree
     * edited to it; parse_source tries it before the raw parse */
    char *cand;
    TSTree *cand_base;
} cached;

/* The new text with the stars the last rewrite replaced (old text `otext`,
 * rewritten `ftext`) replaced again where they still stand, outside the
 * edited span; NULL when none is left. */
static char *rewrite_again(const char *otext, const char *ftext, size_t olen, const char *text, size_t len)
{
    size_t pre = 0, suf = 0;
    while (pre < olen && pre < len && otext[pre] == text[pre]) pre++;
    while (suf < olen - pre && suf < len - pre && otext[olen - 1 - suf] == text[len - 1 - suf]) suf++;
    char *cand = NULL;
    for (size_t i = 0; i < olen; i++) {
        if (ftext[i] == otext[i]) continue;
        size_t j;
        if (i < pre) j = i;
        else if (i >= olen - suf) j = i - olen + len;
        else continue;
        if (!cand) {
            if (!(cand = malloc(len + 1))) return NULL;
            memcpy(cand, text, len);
            cand[len] = 0;
        }
        size_t a = j, b = j;
        while (a > 0 && cand[a - 1] != '\n') a--;
        while (b < len && cand[b] != '\n') b++;
        if (b < len) b++;
        if (star_rewritable(cand, a, b, j)) cand[j] = ' ';
    }
    if (cand && memcmp(cand, text, len) == 0) { free(cand); cand = NULL; }
    return cand;
}

static TSTree *cache_get(cg_py_cache *c, const char *path, uint64_t digest, const char *text, size_t len,
                         int *exact, cached *old)
{
    memset(old, 0, sizeof *old);
    pthread_mutex_lock(&c->lock);
    cache_entry *e = cg_map_get(&c->by_path, path, strlen(path));
    TSTree *t = NULL;
    *exact = 0;
    if (e && e->digest == digest && e->len == len) {
        t = ts_tree_copy(e->tree);
        *exact = 1;
    } else if (e && e->text) {
        /* no raw tree when the last parse took the rewritten text alone */
        t = e->raw ? edited_copy(e->raw, e->text, e->len, text, len) : NULL;
        if (e->fixed_text && (old->fixed_text = malloc(e->fixed_len + 1))) {
            memcpy(old->fixed_text, e->fixed_text, e->fixed_len);
            old->fixed_len = e->fixed_len;
            old->fixed = ts_tree_copy(e->tree);
        }
        if (e->fixed_text && e->fixed_len == e->len &&
            (old->cand = rewrite_again(e->text, e->fixed_text, e->len, text, len)) != NULL)
            old->cand_base = edited_copy(e->tree, e->fixed_text, e->fixed_len, old->cand, len);
    }
    pthread_mutex_unlock(&c->lock);
    return t;
}

/* Keep `tree` (and `raw` and `fixed_text`, owned from here) for `path`. */
static void cache_put(cg_py_cache *c, const char *path, uint64_t digest, const TSTree *tree, TSTree *raw,
                      const char *text, size_t len, char *fixed_text)
{
    TSTree *copy = ts_tree_copy(tree);
    char *keep = malloc(len + 1);
    if (keep) memcpy(keep, text, len);
    pthread_mutex_lock(&c->lock);
    cache_entry *e = cg_map_get(&c->by_path, path, strlen(path));
    if (e) {
        ts_tree_delete(e->tree);
        if (e->raw) ts_tree_delete(e->raw);
        free(e->text);
        free(e->fixed_text);
    } else if ((e = calloc(1, sizeof *e)) && (e->path = strdup(path))) {
        cache_entry **g = c->n == c->cap ? realloc(c->all, (c->cap ? c->cap * 2 : 256) * sizeof *g) : c->all;
        if (!g) {
            free(e->path);
            free(e);
            e = NULL;
        } else {
            if (c->n == c->cap) c->cap = c->cap ? c->cap * 2 : 256;
            c->all = g;
            c->all[c->n++] = e;
            cg_map_put(&c->by_path, e->path, strlen(e->path), e);
        }
    } else {
        free(e);
        e = NULL;
    }
    if (!e) {
        pthread_mutex_unlock(&c->lock);
        ts_tree_delete(copy);
        if (raw) ts_tree_delete(raw);
        free(keep);
        free(fixed_text);
        return;
    }
    e->digest = digest;
    e->tree = copy;
    e->raw = keep ? raw : NULL;
    if (!keep && raw) ts_tree_delete(raw);
    e->text = keep;
    e->len = keep ? len : 0;
    e->fixed_text = fixed_text;
    e->fixed_len = fixed_text ? len : 0;
    pthread_mutex_unlock(&c->lock);
}

/* A plain parse of text (the lookahead of py_project.c parses ahead of
 * need with it; parse_source takes that tree as its own first parse). */
TSTree *py_parse_text(const char *text, size_t len)
{
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    /* A pathological file must not stall the run: 10 s of parsing at most. */
    ts_parser_set_timeout_micros(parser, 10u * 1000u * 1000u);
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
    ts_parser_delete(parser);
    return tree;
}

/* Parse m's source: the tree, or NULL after reporting a timeout. */
static TSTree *parse_source(py_project *p, py_module *m)
{
    cg_py_cache *cache = p->opts->cache;
    uint64_t digest = cache ? cg_source_digest(&m->src) : 0;
    int exact = 0;
    cached old = { 0 };
    TSTree *base = cache ? cache_get(cache, m->file->path, digest, m->src.text, m->src.len, &exact, &old) : NULL;
    if (exact) {
        if (m->ahead) ts_tree_delete(m->ahead);
        m->ahead = NULL;
        return base;
    }
    if (old.cand) {
        /* The last version parsed only with stars rewritten (the grammar's
         * limit): the same rewrite of this one, parsed incrementally, is what
         * the raw parse and parse_grammar_limits would give when it parses
         * without an error; the raw parse (slow around its errors) is skipped. */
        TSParser *parser = ts_parser_new();
        ts_parser_set_language(parser, tree_sitter_python());
        ts_parser_set_timeout_micros(parser, 10u * 1000u * 1000u);
        TSTree *c = ts_parser_parse_string(parser, old.cand_base, old.cand, (uint32_t)m->src.len);
        ts_parser_delete(parser);
        if (old.cand_base) ts_tree_delete(old.cand_base);
        old.cand_base = NULL;
        if (c && !py_has_error(ts_tree_root_node(c))) {
            if (m->ahead) ts_tree_delete(m->ahead);
            m->ahead = NULL;
            if (base) ts_tree_delete(base);
            if (old.fixed) ts_tree_delete(old.fixed);
            free(old.fixed_text);
            cache_put(cache, m->file->path, digest, c, NULL, m->src.text, m->src.len, old.cand);
            return c;
        }
        if (c) ts_tree_delete(c);
        free(old.cand);
        old.cand = NULL;
    }
    TSTree *tree;
    if (m->ahead && !base) {
        tree = m->ahead;   /* parsed ahead of need (py_project.c): the same parse */
    } else {
        if (m->ahead) ts_tree_delete(m->ahead);
        TSParser *parser = ts_parser_new();
        ts_parser_set_language(parser, tree_sitter_python());
        /* A pathological file must not stall the run: 10 s of parsing at most. */
        ts_parser_set_timeout_micros(parser, 10u * 1000u * 1000u);
        tree = ts_parser_parse_string(parser, base, m->src.text, (uint32_t)m->src.len);
        if (base) ts_tree_delete(base);
        ts_parser_delete(parser);
    }
    m->ahead = NULL;
    if (!tree) {
        cg_report_notice(p->report, CG_ERROR, m->file->path, 0, 0,
                         "parsing took longer than 10 s; skipped");
        if (old.fixed) ts_tree_delete(old.fixed);
        free(old.fixed_text);
        return NULL;
    }
    char *rewritten = NULL;
    TSTree *fixed = py_has_error(ts_tree_root_node(tree))
                        ? parse_grammar_limits(m, tree, old.fixed, old.fixed_text, old.fixed_len, cache ? &rewritten : NULL)
                        : NULL;
    if (old.fixed) ts_tree_delete(old.fixed);
    free(old.fixed_text);
    if (cache) {
        /* the raw parse is kept for the next incremental parse of this file */
        cache_put(cache, m->file->path, digest, fixed ? fixed : tree, fixed ? tree : ts_tree_copy(tree),
                  m->src.text, m->src.len, rewritten);
        if (fixed) return fixed;
        return tree;
    }
    if (fixed) {
        ts_tree_delete(tree);
        tree = fixed;
    }
    return tree;
}

void py_report_parse_error(py_project *p, py_module *m)
{
    TSNode root = ts_tree_root_node(m->tree);
    if (py_has_error(root)) {
        TSNode e;
        first_error(root, &e, 0);
        TSPoint pt = py_start_point(e);
        uint32_t line = pt.row + 1, col = cg_source_column(&m->src, line, pt.column);
        /* The file is still analysed: tree-sitter recovers around the error,
         * and a construct its grammar does not know (valid Python it cannot
         * parse) must not hide every hazard in the rest of the file.  The run
         * still ends with exit status 2: this file was not wholly analysed. */
        cg_report_notice(p->report, CG_ERROR, m->file->path, line, col,
                         "cannot parse as Python 3 (%s); the rest of the file was analysed",
                         py_is_missing(e) ? "a token is missing here" : "syntax error here");
    }
}

int py_parse_module(py_project *p, py_module *m)
{
    TSTree *tree = parse_source(p, m);
    if (!tree) return -1;
    m->tree = tree;
    py_report_parse_error(p, m);
    return 0;
}

const char *py_text(const py_module *m, TSNode n, size_t *len)
{
    uint32_t s = py_start_byte(n), e = py_end_byte(n);
    if (e > m->src.len) e = (uint32_t)m->src.len;
    if (s > e) s = e;
    *len = e - s;
    return m->src.text + s;
}

int py_text_eq(const py_module *m, TSNode n, const char *s)
{
    size_t len;
    const char *t = py_text(m, n, &len);
    return strlen(s) == len && memcmp(t, s, len) == 0;
}

char *py_text_dup(py_module *m, TSNode n)
{
    size_t len;
    const char *t = py_text(m, n, &len);
    return cg_arena_strndup(m->arena, t, len);
}

cg_loc py_loc(const py_module *m, TSNode n)
{
    TSPoint s = py_start_point(n), e = py_end_point(n);
    cg_loc l;
    l.path = m->file->path;
    l.line = s.row + 1;
    l.col = cg_source_column(&m->src, l.line, s.column);
    l.end_line = e.row + 1;
    l.end_col = cg_source_column(&m->src, l.end_line, e.column);
    return l;
}

TSNode py_field(TSNode n, TSFieldId f) { return py_child_by_field_id(n, f); }

TSNode py_unparen(TSNode n)
{
    while (!py_is_null(n) && IS(n, parenthesized_expression) && py_named_child_count(n) == 1)
        n = py_named_child(n, 0);
    return n;
}

static size_t count_errors(TSNode n, int depth)
{
    if (!py_has_error(n) || depth > 10000) return 0;
    if (py_is_missing(n) || strcmp(py_type(n), "ERROR") == 0) return 1;
    size_t total = 0;
    uint32_t c = py_child_count(n);
    for (uint32_t i = 0; i < c; i++) total += count_errors(py_child(n, i), depth + 1);
    return total;
}

long cg_py_syntax_errors(const char *text, size_t len)
{
    char err[256];
    if (py_grammar_init(err, sizeof err) != 0) return -1;
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    TSTree *t = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
    ts_parser_delete(parser);
    if (!t) return -1;
    long n = (long)count_errors(ts_tree_root_node(t), 0);
    ts_tree_delete(t);
    return n;
}
