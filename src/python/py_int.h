/* py_int.h - internals of the Python front end, shared by its .c files only.
 *
 * Data model
 *   py_project  every Python file of the run, indexed by dotted module name.
 *   py_module   one file: source, tree (parsed on demand), imports, top-level
 *               functions, classes and assignment counts.
 *   py_class    methods, bases and what __init__ (or any method) stores in
 *               self attributes, so `self.block(x)` resolves to Block.forward.
 *   py_func     a function or method; the module body is a pseudo-function.
 *   py_val      the abstract value of an expression: tensor, number, ndarray,
 *               a project class instance, an external name ("torch.cuda.graph")...
 *
 * A module's index (py_index.c) may outlive its run: `cglint server` keeps it
 * for the next run over the same bytes (py_keep.c).  Whatever the evaluator
 * writes into index objects is reset there; it allocates nothing in a
 * module's arena.
 *
 * The analysis itself is the evaluator (py_eval.h lists its files), the
 * rules are in py_checks.c (py_check.h). */
#ifndef CG_PY_INT_H
#define CG_PY_INT_H
#include <stdint.h>
#include <pthread.h>
#include <tree_sitter/api.h>
#include "core/arena.h"
#include "core/hash.h"
#include "core/source.h"
#include "core/str.h"
#include "core/report.h"
#include "workflow/walk.h"
#include "py.h"

const TSLanguage *tree_sitter_python(void);

/* ---- grammar symbols and fields, looked up once --------------------------- */
typedef struct py_grammar {
    TSSymbol module, block, expression_statement, call, attribute, identifier,
        argument_list, keyword_argument, with_statement, with_clause, with_item,
        assignment, augmented_assignment, subscript, slice, if_statement,
        elif_clause, else_clause, for_statement, while_statement, try_statement,
        function_definition, class_definition, decorated_definition,
        import_statement, import_from_statement, aliased_import, dotted_name,
        relative_import, import_prefix, return_statement, global_statement,
        assert_statement, conditional_expression, boolean_operator, not_operator,
        comparison_operator, binary_operator, unary_operator, parenthesized_expression,
        string, interpolation, concatenated_string, integer, float_, true_, false_,
        none, list, dictionary, set, tuple, list_comprehension, dictionary_comprehension,
        set_comprehension, generator_expression, for_in_clause, if_clause, lambda,
        pattern_list, tuple_pattern, expression_list, typed_parameter, default_parameter,
        typed_default_parameter, parameters, list_splat, dictionary_splat,
        list_splat_pattern, dictionary_splat_pattern, comment, except_clause,
        finally_clause, raise_statement, pass_statement, decorator, type, wildcard_import,
        delete_statement, named_expression, await_, match_statement, nonlocal_statement,
        future_import_statement, pair, generic_type, as_pattern, with_item_alias_unused;
    TSFieldId f_function, f_arguments, f_object, f_attribute, f_name, f_value, f_body,
        f_left, f_right, f_condition, f_consequence, f_alternative, f_parameters,
        f_superclasses, f_module_name, f_alias, f_subscript, f_argument, f_operator,
        f_definition, f_type, f_expression, f_return_type, f_key;
} py_grammar;
extern py_grammar PY;


/* ---- null-safe tree access --------------------------------------------------
 * tree-sitter's accessors dereference the node: on a null TSNode (a missing
 * field, `x: int` with no right-hand side, an error-recovered tree) they crash.
 * The front end reads the tree only through these, which answer "nothing" for
 * a null node; tests/regress/run.sh fails on a raw ts_node_ call in any .c file of src/python. */
static inline int py_is_null(TSNode n) { return ts_node_is_null(n); }
static inline TSSymbol py_symbol(TSNode n) { return ts_node_is_null(n) ? (TSSymbol)0 : ts_node_symbol(n); }
static inline const char *py_type(TSNode n) { return ts_node_is_null(n) ? "" : ts_node_type(n); }
static inline uint32_t py_child_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_child_count(n); }
static inline uint32_t py_named_child_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
static inline TSNode py_child(TSNode n, uint32_t i) { return i < py_child_count(n) ? ts_node_child(n, i) : (TSNode){0}; }
static inline TSNode py_named_child(TSNode n, uint32_t i) { return i < py_named_child_count(n) ? ts_node_named_child(n, i) : (TSNode){0}; }
static inline TSNode py_parent(TSNode n) { return ts_node_is_null(n) ? n : ts_node_parent(n); }
static inline TSNode py_child_by_field_id(TSNode n, TSFieldId f) { return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, f); }
static inline uint32_t py_start_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_start_byte(n); }
static inline uint32_t py_end_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_end_byte(n); }
static inline TSPoint py_start_point(TSNode n) { return ts_node_is_null(n) ? (TSPoint){0, 0} : ts_node_start_point(n); }
static inline TSPoint py_end_point(TSNode n) { return ts_node_is_null(n) ? (TSPoint){0, 0} : ts_node_end_point(n); }
static inline int py_is_named(TSNode n) { return !ts_node_is_null(n) && ts_node_is_named(n); }
static inline int py_is_missing(TSNode n) { return !ts_node_is_null(n) && ts_node_is_missing(n); }
static inline int py_has_error(TSNode n) { return !ts_node_is_null(n) && ts_node_has_error(n); }
static inline int py_eq(TSNode a, TSNode b) { return ts_node_eq(a, b); }
static inline TSNode py_descendant_for_byte_range(TSNode n, uint32_t s, uint32_t e)
{ return ts_node_is_null(n) ? n : ts_node_descendant_for_byte_range(n, s, e); }

/* A walk over a subtree with a cursor: linear where indexing children is
 * quadratic in their number.  py_cursor_new on a null node gives a cursor
 * that has nothing to visit. */
typedef struct py_cursor { TSTreeCursor c; int ok; } py_cursor;
static inline py_cursor py_cursor_new(TSNode n)
{
    py_cursor k = { .ok = !ts_node_is_null(n) };
    if (k.ok) k.c = ts_tree_cursor_new(n);
    return k;
}
static inline void py_cursor_free(py_cursor *k) { if (k->ok) ts_tree_cursor_delete(&k->c); }
static inline TSNode py_cursor_node(const py_cursor *k) { return k->ok ? ts_tree_cursor_current_node(&k->c) : (TSNode){0}; }
static inline int py_cursor_first_child(py_cursor *k) { return k->ok && ts_tree_cursor_goto_first_child(&k->c); }
static inline int py_cursor_next_sibling(py_cursor *k) { return k->ok && ts_tree_cursor_goto_next_sibling(&k->c); }
static inline int py_cursor_parent(py_cursor *k) { return k->ok && ts_tree_cursor_goto_parent(&k->c); }

/* The named children of a node, in order: `py_kids k = py_kids_of(n); for
 * (TSNode c; !py_is_null(c = py_kids_next(&k));) ...; py_kids_free(&k);`.
 * Indexing (py_named_child(n, i)) walks the children from the first every
 * time, quadratic over a long block or parameter list: past a few children
 * a cursor walks them once instead. */
typedef struct py_kids { TSNode n; uint32_t i, count; int started; py_cursor k; } py_kids;
static inline py_kids py_kids_of(TSNode n)
{
    py_kids it = { .n = n, .count = py_named_child_count(n) };
    if (it.count > 8) it.k = py_cursor_new(n);
    return it;
}
static inline TSNode py_kids_next(py_kids *it)
{
    if (it->count <= 8) return it->i < it->count ? py_named_child(it->n, it->i++) : (TSNode){0};
    for (;;) {
        int ok = it->started ? py_cursor_next_sibling(&it->k) : py_cursor_first_child(&it->k);
        it->started = 1;
        if (!ok) return (TSNode){0};
        TSNode c = py_cursor_node(&it->k);
        if (py_is_named(c)) { it->i++; return c; }
    }
}
static inline void py_kids_free(py_kids *it) { if (it->count > 8) py_cursor_free(&it->k); }

/* A node of this grammar symbol (never true of a null node). */
#define IS(node, sym) py_is_sym((node), PY.sym)
static inline int py_is_sym(TSNode n, TSSymbol sym) { return !ts_node_is_null(n) && ts_node_symbol(n) == sym; }

/* ---- project model --------------------------------------------------------- */
typedef struct py_module py_module;
typedef struct py_class py_class;
typedef struct py_func py_func;

struct py_func {
    py_module *mod;
    py_class *cls;          /* NULL for functions and the module body */
    const char *name;
    const char *qualname;   /* "Model.forward", "helper", "<module>" */
    TSNode node;            /* function_definition, or the module node */
    TSNode body;
    int is_module_body;
    /* what an analysis is doing with the function (on its call stack) is the
     * analysis's own (py_ctx.busy): analyses of capture files run at once */
    cg_map local_assigns;   /* name -> (void*)count of assignments in this body */
    int local_assigns_ready;
};

typedef struct py_attr {
    const char *name;
    TSNode value;           /* a right-hand side, preferring __init__'s */
    py_func *value_fn;      /* the method it sits in (NULL: the class body) */
    TSNode type;            /* an annotation (`x: T` in the class body, `self.x: T = ...`), */
    py_module *type_mod;    /*   in this module */
    int assigns;            /* assignments to self.<name> in the class */
    int assigns_outside_init;
    /* what the stores are, for a one-way flag (`self.ready = False` in
     * __init__, `= True` in one other method): PY_AB_* bits, in __init__ or
     * the class body, and elsewhere */
    uint8_t bools_init, bools_out;
    /* whether the object's construction sets it is decided by walking code:
     * the analysis keeps that (py_ctx.latches), not the index */
    py_func *setter;        /* the one method storing outside __init__ (NULL: none or several) */
    int setters;
} py_attr;
enum { PY_AB_FALSE = 1, PY_AB_TRUE = 2, PY_AB_OTHER = 4 };

struct py_class {
    py_module *mod;
    const char *name;
    TSNode node;
    TSNode bases;           /* argument_list or null node */
    cg_map methods;         /* name -> py_func */
    cg_map attrs;           /* name -> py_attr */
    int bases_resolved;
    py_class *base[4];      /* project base classes, resolved lazily */
    int nbase;
    int is_nn_module;       /* some base is torch.nn.Module (directly or through a project base) */
    py_class *next_in_module; /* every class of the module, nested and redefined ones too (freeing) */
};

/* What a module's text says anywhere, found once when it is indexed, for
 * rules that depend on code elsewhere in the file. */
enum {
    PY_MT_SCALAR_OUTPUTS = 1 << 0,      /* capture_scalar_outputs=True: Dynamo traces .item() (CG101/CG901) */
    PY_MT_REGISTERS_GENERATOR = 1 << 1, /* register_generator_state(...) (CG602) */
    PY_MT_BUILDS_DDP = 1 << 2,          /* DistributedDataParallel(...) or DDP(...) built here (CG703) */
    PY_MT_NCCL_ASYNC = 1 << 3,          /* NCCL_ASYNC_ERROR_HANDLING set (CG703) */
    PY_MT_DEFAULT_CUDA = 1 << 4,        /* torch.set_default_device(...) with a device that is not
                                           written as the CPU or meta: factories may be on the GPU */
};

typedef struct py_import {
    const char *target;     /* absolute dotted name: "torch.cuda.graph", "app.layers.Block" */
} py_import;

struct py_module {
    cg_file *file;
    const char *name;       /* dotted: "app.layers.block"; scripts: "train" */
    const char *package;    /* for relative imports: "app.layers"; "" at top level */
    const char *root;       /* directory that is the sys.path entry for it */
    int is_init;            /* an __init__.py */
    pthread_mutex_t lock;
    int state;              /* 0 not loaded, 1 parsed and indexed, -1 failed */
    int has_marker;         /* text mentions a capture API */
    int preloaded;          /* indexed before the analyses began (a capture file, or imported
                               by one): every analysis sees it as loaded */
    cg_source src;
    TSTree *tree;
    TSTree *ahead;          /* parsed ahead of need by py_project.c's lookahead thread, not yet
                               taken by py_parse_module (under lock) */
    cg_arena *arena;
    cg_map imports;         /* local name -> py_import */
    cg_map funcs;           /* top-level def name -> py_func */
    cg_map classes;         /* top-level class name -> py_class */
    cg_map global_assigns;  /* module-level name -> (void*)(count) */
    cg_map global_values;   /* module-level name -> TSNode* (last right-hand side) */
    py_func *body;          /* the module body as a pseudo-function */
    py_func **all_funcs;    /* every def in the file, methods and nested too */
    size_t nall_funcs, capall_funcs;
    py_class *all_classes;  /* every class in the file (chain through next_in_module) */
    unsigned text_facts;    /* PY_MT_*: what the file's text says anywhere */
    uint64_t call_names[64];/* Bloom filters, set in phase 1, of the names the text calls */
    uint64_t import_names[32]; /* (`name(`) and imports: where a function's call sites may be */
    py_module *next_same_name;
    py_module *reached_from;  /* cg_py_focus.reach: the capture file last told of */
    cg_map attr_counts;     /* attr name -> (void*)count: this module's share of the project's
                               attr_assigns (a kept index adds it again, py_keep.c) */
    struct py_kept *kept;   /* the kept index this run borrowed (py_keep.c), or NULL */
};

/* One capture file's analysis (py_analyze.c), and what the project index
 * keeps of it (py_cache.c): which modules it loaded and which Bloom queries
 * it asked of the others, so that a later run re-runs it only when a module
 * it loaded changed or a changed module answers one of its queries
 * differently, and keeps its findings otherwise. */
typedef struct py_analysis {
    size_t root;            /* the capture file (module index) */
    size_t *seen, nseen;    /* modules it loaded, in order (module indices) */
    char **queries;         /* the queries: "c" + name (may_call), "i" + name (may_import) */
    size_t nqueries;
    uint64_t asked[96];     /* their bits (as py_project.asked) */
    int attr_queries;       /* it read the attribute counts (CG304): they sum the preloaded modules */
    int run;                /* 1: analyse in this run; 0: kept from the index */
    cg_report out;          /* its findings */
} py_analysis;

typedef struct py_project {
    py_module *mods;
    size_t nmods;
    cg_map by_name;         /* dotted name -> py_module (chain through next_same_name) */
    cg_map attr_assigns;    /* attr name -> (void*)count of `X.attr = ...` outside __init__ in
                               the preloaded modules (an analysis adds the modules it loads) */
    cg_report *report;
    const cg_py_opts *opts;
    cg_arena *arena;        /* project-lifetime allocations */
    struct py_cache_state *cache; /* the project index (py_cache.c), or NULL */
    /* every bit of the modules' call_names (words 0-63) and import_names
     * (words 64-95) filters the analysis asked about
     * (py_module_may_call/_import): an unparsed module's filters matter
     * only through these */
    uint64_t asked[96];
    /* the analyses, one a capture file, in module order: made by
     * py_analyze_project, or by py_cache_begin when the index answers for
     * some of them (a partial run: only those with run set are analysed) */
    py_analysis *an;
    size_t nan;
    int partial;
} py_project;

/* ---- py_parse.c ------------------------------------------------------------ */
int py_grammar_init(char *err, size_t errlen);
/* tree-sitter's tree of a text (10 s at most), or NULL; reports nothing. */
TSTree *py_parse_text(const char *text, size_t len);
/* Parse m->src into m->tree.  Returns 0, or -1 after reporting a notice. */
int py_parse_module(py_project *p, py_module *m);
/* The bytes of node n in m's source (*len of them, not terminated): a
 * pointer into m->src, valid while the module's source is loaded. */
const char *py_text(const py_module *m, TSNode n, size_t *len);
int py_text_eq(const py_module *m, TSNode n, const char *s);
/* Node n's text, terminated; it belongs to m->arena (freed with the module's
 * index).  For indexing only: the evaluator's copies go to its own arena
 * (py_ctx_text_dup), as a kept index outlives the analysis (py_keep.c). */
char *py_text_dup(py_module *m, TSNode n);
cg_loc py_loc(const py_module *m, TSNode n);
TSNode py_field(TSNode n, TSFieldId f);
/* Strip parentheses around an expression. */
TSNode py_unparen(TSNode n);

/* ---- py_index.c ------------------------------------------------------------ */
/* Load (read, parse, index) a module if not done yet.  Thread-safe.
 * Returns 0 when the module is usable. */
int py_module_ensure(py_project *p, py_module *m);
/* The index's own objects: modules, classes, functions and attributes
 * belong to the project (its modules' arenas) and live until it is freed;
 * callers never free them. */
py_module *py_project_module(py_project *p, const char *dotted, const py_module *near);
py_module *py_import_module(py_project *p, const char *target, const py_module *from);
/* m's text facts (PY_MT_*), or those of a project module it imports, include fact */
int py_module_or_imports_say(py_project *p, py_module *m, unsigned fact);
/* The class (c or a base) that defines method `name`, its function in *out; NULL if none. */
py_class *py_class_lookup_method_owner(py_project *p, py_class *c, const char *name, py_func **out);
/* What c (or a base) stores in self.<name>, or NULL. */
py_attr *py_class_attr(py_project *p, py_class *c, const char *name);
void py_class_resolve_bases(py_project *p, py_class *c);
int py_count_local_assigns(py_func *f, const char *name, size_t len);
/* `acc = 0; for b in bs: acc = acc + b(x)`: n, a read of acc, folds it into a tensor (CG304) */
int py_tensor_accumulator(py_func *f, TSNode n, const char *name, size_t len);

/* The names module text t (n bytes) calls, into its Bloom filter. */
void py_index_call_names(py_module *m, const char *t, size_t n);
/* Might module m call `name`?  Might it import `name` (a module or one of
 * its members)?  (No false negatives.) */
/* Bloom queries: may module m call `name(`, import `name`?  Records the
 * bits asked in p->asked_* (what the project index's manifest keeps). */
int py_module_may_call(py_project *p, const py_module *m, const char *name);
int py_module_may_import(py_project *p, const py_module *m, const char *name, size_t len);
/* The call nodes of module m (loaded) whose callee is spelled `name`,
 * `x.name` or `x.y.name`: up to max of them into out; returns how many. */
int py_module_call_nodes(py_module *m, const char *name, TSNode *out, int max);
/* The innermost function (or the module body) of m around node n. */
py_func *py_enclosing_func(py_module *m, TSNode n);

/* What a name bound at module level refers to. */
typedef enum { PY_SYM_NONE, PY_SYM_FUNC, PY_SYM_CLASS, PY_SYM_MODULE, PY_SYM_EXTERNAL, PY_SYM_GLOBAL } py_sym_kind;
typedef struct py_sym {
    py_sym_kind kind;
    py_func *func;
    py_class *cls;
    py_module *mod;
    const char *qual;       /* external dotted name */
} py_sym;
py_sym py_resolve_name(py_project *p, py_module *m, const char *name, size_t len);
py_sym py_resolve_member(py_project *p, py_module *m, const char *name, size_t len);
py_sym py_resolve_dotted(py_project *p, const char *dotted, const py_module *near, int depth);

/* Free what indexing made for m (maps, arena, tree, source); the module's
 * struct itself stays.  A no-op on a module never indexed. */
void py_index_release(py_module *m);
/* Add m's attr_counts to the project's attr_assigns (thread-safe). */
void py_index_merge_counts(py_project *p, py_module *m);
/* The analysis running on this thread (py_analyze.c), if any, uses m;
 * asked a Bloom query (kind 'c' may_call, 'i' may_import) of a module. */
void py_ctx_note_module(py_module *m);
void py_ctx_note_query(char kind, const char *name, size_t len);
/* A Bloom filter's answer, and its bits marked in `asked` (py_index.c) */
int py_bloom_has(const uint64_t *words, unsigned nbits, const char *name, size_t len);
void py_bloom_mark(uint64_t *words, unsigned nbits, const char *name, size_t len);
void py_analysis_free(py_analysis *a);
/* m's parse error, if its tree has one: a notice (every run that uses the tree). */
void py_report_parse_error(py_project *p, py_module *m);

/* ---- py_keep.c: module indexes kept between runs (cglint server) ---------- */
typedef struct py_keep py_keep;
py_keep *py_keep_new(void);
void py_keep_free(py_keep *k);
/* The keep of the run's tree cache (py_parse.c), or NULL without one. */
py_keep *py_cache_keep(cg_py_cache *c);
/* m's source is loaded and it is about to be parsed and indexed: when the
 * keep holds the index of the same bytes under the same module name, m
 * borrows it instead (reset as a fresh index is, its share of the
 * project's counts added, its parse error reported) and 1 is returned. */
int py_keep_take(py_project *p, py_module *m);
/* At the end of the run: m gives back the index it borrowed, or donates the
 * one it built (replacing that of older bytes); either way m no longer
 * owns it.  Thread-safe. */
void py_keep_give(py_project *p, py_module *m);

/* ---- py_analyze.c (and the evaluator behind it: py_eval.h) ---------------- */
void py_analyze_project(py_project *p);
/* Projects of runs whose process ends after them (cg_py_opts.exit_after):
 * not freed, and reachable from here. */
extern py_project *py_left_to_the_os[8];
#endif
