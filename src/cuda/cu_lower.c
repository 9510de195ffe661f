/* cu_lower.c - libclang cursors to cu_nodes.
 *
 * Only definitions in analysed files are lowered (the toolkit's and the
 * system's headers never are); kernels and device-only functions are
 * skipped, since nothing in them runs on the host during a capture.  Every
 * node gets the place the user wrote it: clang_getFileLocation maps a token
 * from a macro argument to where it is written in the argument, and a token
 * from a macro body to the macro's use, so calls inside CUDA_CHECK(...) keep
 * their own position; nodes spelled in a macro's body are flagged CU_F_MACRO
 * (the cpu rules leave error-reporting macro bodies alone).
 *
 * Shapes worth knowing (libclang 19-22):
 *   - a kernel launch is a CallExpr whose second child is a call to
 *     __cudaPushCallConfiguration (toolkit) or cudaConfigureCall (shim);
 *   - an omitted default argument is an UnexposedExpr with no children and
 *     no location;
 *   - a call to an undeclared function (or an unresolved one in a template)
 *     is an UnexposedExpr whose first child refers to an OverloadedDeclRef;
 *   - an operator() call lists the object as its first argument. */
#include "cu_int.h"
#include "core/alloc.h"
#include "cu_clang.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct lower {
    cu_project *p;
    cu_file *owner;
    cg_arena *a;
    CXTranslationUnit tu;
    struct { CXFile f; int idx; } files[64];
    int nfiles;
    CXFile cur_file;        /* the file of the function being lowered */
    int cur_idx;
    cu_func **funcs;
    size_t nfuncs, capfuncs;
    int depth;              /* lower_expr/lower_stmt nesting (bounded by CU_MAX_NEST) */
    int deep;               /* the function being lowered went deeper: ... */
    cu_loc deep_at;         /* ... first here */
} lower;

/* ---- small helpers --------------------------------------------------------- */
static char *cx_dup(lower *l, CXString s)
{
    const char *c = clang_getCString(s);
    char *r = (c && *c) ? cg_arena_strdup(l->a, c) : NULL;
    clang_disposeString(s);
    return r;
}

/* Children of a cursor.  The inline buffer is small: every recursive frame
 * of the lowering has one. */
#define KIDS_INLINE 4
typedef struct kids { CXCursor buf[KIDS_INLINE]; CXCursor *v; unsigned n, cap; } kids;

static enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (k->n == k->cap) {
        unsigned nc = k->cap * 2;
        CXCursor *nv = cg_xmalloc(nc * sizeof *nv);
        memcpy(nv, k->v, k->n * sizeof *nv);
        if (k->v != k->buf) free(k->v);
        k->v = nv;
        k->cap = nc;
    }
    k->v[k->n++] = c;
    return CXChildVisit_Continue;
}

static void kids_get(kids *k, CXCursor c)
{
    k->v = k->buf;
    k->n = 0;
    k->cap = KIDS_INLINE;
    if (!clang_Cursor_isNull(c)) clang_visitChildren(c, collect_cb, k);
}

static void kids_free(kids *k) { if (k->v != k->buf) free(k->v); }

/* Index of an analysed file, or -1. */
static int file_index(lower *l, CXFile f)
{
    if (!f) return -1;
    if (f == l->cur_file) return l->cur_idx;
    for (int i = 0; i < l->nfiles; i++)
        if (clang_File_isEqual(l->files[i].f, f)) return l->files[i].idx;
    CXFileUniqueID id;
    int idx = -1;
    if (clang_getFileUniqueID(f, &id) == 0) {
        char key[64];
        int kl = snprintf(key, sizeof key, "%llx:%llx", (unsigned long long)id.data[0],
                          (unsigned long long)id.data[1]);
        void *v = cg_map_get(&l->p->by_inode, key, (size_t)kl);
        if (v) idx = (int)((uintptr_t)v - 1);
    }
    if (idx < 0) {
        /* a file that is not on disk (an editor's unsaved buffer, given to
         * libclang as an unsaved file) has no inode: matched by its name */
        CXString name = clang_getFileName(f);
        const char *s = clang_getCString(name);
        for (size_t i = 0; s && i < l->p->nfiles && idx < 0; i++)
            if (!l->p->files[i].ino && strcmp(s, l->p->files[i].path) == 0) idx = (int)i;
        clang_disposeString(name);
    }
    if (l->nfiles < 64) {   /* a cache: a file past it is looked up each time */
        l->files[l->nfiles].f = f;
        l->files[l->nfiles].idx = idx;
        l->nfiles++;
    }
    return idx;
}

static void set_loc(lower *l, cu_node *n, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXSourceLocation s = clang_getRangeStart(r);
    CXFile f;
    unsigned line, col, off;
    clang_getFileLocation(s, &f, &line, &col, &off);
    if (!f) return;   /* no location: a default argument, an implicit node */
    int idx = f == l->cur_file ? l->cur_idx : file_index(l, f);
    CXFile sf;
    unsigned sl, sc, soff;
    clang_getSpellingLocation(s, &sf, &sl, &sc, &soff);
    if (soff != off || !clang_File_isEqual(sf, f)) n->flags |= CU_F_MACRO;
    n->loc.file = idx;
    n->loc.line = line;
    n->loc.col = col;
    CXFile ef;
    unsigned el, ec, eoff;
    clang_getFileLocation(clang_getRangeEnd(r), &ef, &el, &ec, &eoff);
    if (ef && clang_File_isEqual(ef, f) && eoff > off && !(n->flags & CU_F_MACRO)) {
        n->loc.end_line = el;
        n->loc.end_col = ec;
    }
    /* else end_line stays 0: the span is the identifier at the start */
}

static cu_node *node(lower *l, int kind, CXCursor c)
{
    cu_node *n = cg_arena_alloc(l->a, sizeof *n);
    n->kind = (uint8_t)kind;
    n->loc.file = -1;
    if (!clang_Cursor_isNull(c)) set_loc(l, n, c);
    return n;
}

static void set_kids(lower *l, cu_node *n, cu_node **v, unsigned k)
{
    if (k > INT32_MAX) k = INT32_MAX;   /* more children than a TU can have */
    n->nkids = (int32_t)k;
    if (!n->nkids) return;
    n->kids = cg_arena_alloc(l->a, (size_t)n->nkids * sizeof *n->kids);
    memcpy(n->kids, v, (size_t)n->nkids * sizeof *n->kids);
}

/* A growable list of lowered children (no fixed cap): malloc while it is
 * built, an exact copy in the arena once it is the node's. */
typedef struct nodes { cu_node **v; unsigned n, cap; } nodes;

static void nodes_push(lower *l, nodes *ns, cu_node *x)
{
    (void)l;
    if (ns->n == ns->cap) {
        unsigned nc = ns->cap ? ns->cap * 2 : 8;
        cu_node **nv = cg_xrealloc(ns->v, (size_t)nc * sizeof *nv);
        ns->v = nv;
        ns->cap = nc;
    }
    ns->v[ns->n++] = x;
}

/* The list becomes n's children (and is emptied). */
static void set_kids_list(lower *l, cu_node *n, nodes *ns)
{
    set_kids(l, n, ns->v, ns->n);
    free(ns->v);
    memset(ns, 0, sizeof *ns);
}

static cu_tclass tclass_of(CXType t, int *is_ref)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
        if (is_ref) *is_ref = 1;
        t = clang_getCanonicalType(clang_getPointeeType(t));
    }
    switch (t.kind) {
    case CXType_Pointer: {
        CXType pt = clang_getCanonicalType(clang_getPointeeType(t));
        if (pt.kind == CXType_Record) {
            CXString s = clang_getCursorSpelling(clang_getTypeDeclaration(pt));
            const char *n = clang_getCString(s);
            cu_tclass r = CU_T_PTR;
            if (n && strcmp(n, "CUstream_st") == 0) r = CU_T_STREAM;
            else if (n && strcmp(n, "CUevent_st") == 0) r = CU_T_EVENT;
            else if (n && strcmp(n, "CUgraph_st") == 0) r = CU_T_GRAPH;
            clang_disposeString(s);
            return r;
        }
        return CU_T_PTR;
    }
    case CXType_Record: {
        CXCursor d = clang_getTypeDeclaration(t);
        if (!clang_Cursor_isAnonymous(d)) {
            CXString s = clang_getCursorSpelling(d);
            const char *n = clang_getCString(s);
            cu_tclass r = CU_T_RECORD;
            if (n && strcmp(n, "dim3") == 0) r = CU_T_DIM3;
            clang_disposeString(s);
            if (r == CU_T_RECORD) {
                CXString ts = clang_getTypeSpelling(t);
                const char *tn = clang_getCString(ts);
                if (tn && strstr(tn, "(lambda at ")) r = CU_T_LAMBDA;
                clang_disposeString(ts);
            }
            return r;
        }
        return CU_T_RECORD;
    }
    case CXType_Enum: {
        CXString s = clang_getCursorSpelling(clang_getTypeDeclaration(t));
        const char *n = clang_getCString(s);
        cu_tclass r = (n && (strcmp(n, "cudaError") == 0 || strcmp(n, "cudaError_enum") == 0)) ? CU_T_ERROR : CU_T_ARITH;
        clang_disposeString(s);
        return r;
    }
    default:
        if (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) return CU_T_ARITH;
        if (t.kind == CXType_Int128 || t.kind == CXType_UInt128 || t.kind == CXType_Float128 ||
            t.kind == CXType_Half || t.kind == CXType_Float16)
            return CU_T_ARITH;
        return CU_T_OTHER;
    }
}

static int eval_int(CXCursor c, int64_t *out)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r) return 0;
    int ok = 0;
    if (clang_EvalResult_getKind(r) == CXEval_Int) {
        *out = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                 : clang_EvalResult_getAsLongLong(r);
        ok = 1;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

static int is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_FunctionTemplate ||
           k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult device_attr_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CUDAGlobalAttr) { *(int *)d |= 1; return CXChildVisit_Break; }
    if (k == CXCursor_CUDADeviceAttr) *(int *)d |= 2;
    if (k == CXCursor_CUDAHostAttr) *(int *)d |= 4;
    return CXChildVisit_Continue;
}

/* Is a function declared noreturn?  __attribute__((noreturn)) is part of
 * its type; [[noreturn]] and _Noreturn are attributes libclang does not
 * expose, so their tokens are read (through a macro such as GGML_NORETURN the
 * token is the macro's name). */
typedef struct noret_scan { CXTranslationUnit tu; int found; } noret_scan;

static int has_noreturn_token(CXTranslationUnit tu, CXSourceRange r)
{
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, r, &toks, &nt);
    int found = 0;
    for (unsigned i = 0; i < nt && i < 8 && !found; i++) {
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(sp);
        found = t && (strstr(t, "noreturn") || strstr(t, "Noreturn") || strstr(t, "NORETURN"));
        clang_disposeString(sp);
    }
    if (toks) clang_disposeTokens(tu, toks, nt);
    return found;
}

static enum CXChildVisitResult noret_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    noret_scan *ns = d;
    if (clang_getCursorKind(c) == CXCursor_UnexposedAttr && has_noreturn_token(ns->tu, clang_getCursorExtent(c))) {
        ns->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static int is_noreturn(lower *l, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) return 0;
    CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
    const char *t = clang_getCString(ts);
    int nr = t && strstr(t, "noreturn") != NULL;
    clang_disposeString(ts);
    if (nr) return 1;
    /* the attribute may be on any redeclaration; the canonical one usually
     * carries it (a header's prototype) */
    CXCursor decls[2] = { decl, clang_getCanonicalCursor(decl) };
    for (int i = 0; i < 2; i++) {
        if (i == 1 && clang_equalCursors(decls[0], decls[1])) break;
        noret_scan ns = { l->tu, 0 };
        clang_visitChildren(decls[i], noret_cb, &ns);
        if (ns.found) return 1;
    }
    return 0;
}

/* Is a callee declared in one of the analysed files (the project's own
 * code), with a host definition that may be in a file not parsed yet?  Not
 * for kernels and device-only functions (never lowered) or pure virtual
 * methods (no definition has their USR). */
/* A status type: an enum whose enumerator of value 0 is named as a success
 * (cudaSuccess, CUDA_SUCCESS, ncclSuccess, testSuccess, kOk, STATUS_OK).
 * Its other enumerators are failures: `return testTimeout;` ends an error
 * path. */
static int success_name(const char *n)
{
    size_t len = n ? strlen(n) : 0;
    if (len >= 7 && strcasecmp(n + len - 7, "success") == 0) return 1;
    if (len < 2 || strcasecmp(n + len - 2, "ok") != 0) return 0;
    /* OK, kOk, StatusOk, STATUS_OK: not a word that merely ends in "ok" (kBook) */
    return len == 2 || n[len - 3] == '_' || n[len - 2] == 'O' || n[len - 3] == 'k';
}

static enum CXChildVisitResult find_success(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl || clang_getEnumConstantDeclValue(c) != 0)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    *(int *)d = success_name(clang_getCString(s));
    clang_disposeString(s);
    return CXChildVisit_Break;
}

static int is_status_enum(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_EnumDecl) return 0;
    int found = 0;
    clang_visitChildren(e, find_success, &found);
    return found;
}

static int in_project(lower *l, CXCursor decl)
{
    if (clang_Cursor_isNull(decl)) return 0;
    CXFile f;
    clang_getFileLocation(clang_getCursorLocation(decl), &f, NULL, NULL, NULL);
    if (file_index(l, f) < 0) return 0;
    if (clang_CXXMethod_isPureVirtual(decl)) return 0;
    int attrs = 0;
    clang_visitChildren(decl, device_attr_cb, &attrs);
    return !(attrs & 1) && !((attrs & 2) && !(attrs & 4));
}

/* An unresolved callee (OverloadedDeclRef): undeclared, or one of the
 * candidates is the project's. */
static int overloaded_flags(lower *l, CXCursor ovl)
{
    unsigned n = clang_getNumOverloadedDecls(ovl);
    if (n == 0) return CU_F_UNDECLARED;
    for (unsigned i = 0; i < n; i++)
        if (in_project(l, clang_getOverloadedDecl(ovl, i))) return CU_F_PROJDECL;
    return 0;
}

/* USR of a callee: a template specialisation maps to its template, which is
 * what was lowered. */
static char *callee_usr(lower *l, CXCursor ref)
{
    if (clang_Cursor_isNull(ref)) return NULL;
    CXCursor t = clang_getSpecializedCursorTemplate(ref);
    if (!clang_Cursor_isNull(t) && is_function_kind(clang_getCursorKind(t))) ref = t;
    return cx_dup(l, clang_getCursorUSR(ref));
}

static cu_storage storage_of(CXCursor ref)
{
    switch (clang_getCursorKind(ref)) {
    case CXCursor_ParmDecl: return CU_S_PARAM;
    case CXCursor_FieldDecl: return CU_S_FIELD;
    case CXCursor_VarDecl: {
        enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(ref));
        int in_fn = is_function_kind(pk) || pk == CXCursor_LambdaExpr;
        if (clang_Cursor_getStorageClass(ref) == CX_SC_Static) return in_fn ? CU_S_STATIC : CU_S_GLOBAL;
        if (in_fn) return CU_S_LOCAL;
        if (pk == CXCursor_ClassDecl || pk == CXCursor_StructDecl) return CU_S_STATIC;
        return CU_S_GLOBAL;
    }
    default: return CU_S_NONE;
    }
}

/* The destructor of a class type, if the class declares one. */
static enum CXChildVisitResult find_dtor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_Destructor) { *(CXCursor *)d = c; return CXChildVisit_Break; }
    return CXChildVisit_Continue;
}

static cu_node *lower_expr(lower *l, CXCursor c);
static cu_node *lower_stmt(lower *l, CXCursor c);

static int is_ref_kind(enum CXCursorKind k)
{
    return k == CXCursor_TypeRef || k == CXCursor_TemplateRef || k == CXCursor_NamespaceRef ||
           k == CXCursor_MemberRef || k == CXCursor_LabelRef || k == CXCursor_OverloadedDeclRef ||
           k == CXCursor_VariableRef || k == CXCursor_CXXBaseSpecifier ||
           (k >= CXCursor_FirstAttr && k <= CXCursor_LastAttr);
}

/* The OverloadedDeclRef under an expression (an unresolved callee), if any;
 * *flags gets CU_F_UNDECLARED or CU_F_PROJDECL (see overloaded_flags). */
static int overloaded_flags(lower *l, CXCursor ovl);
static int overloaded_name(lower *l, CXCursor c, char **name, int *flags)
{
    for (int depth = 0; depth < 3; depth++) {
        if (clang_getCursorKind(c) == CXCursor_OverloadedDeclRef) {
            *name = cx_dup(l, clang_getCursorSpelling(c));
            if (flags) *flags = overloaded_flags(l, c);
            return 1;
        }
        kids k;
        kids_get(&k, c);
        if (k.n < 1) { kids_free(&k); return 0; }
        c = k.v[0];
        kids_free(&k);
    }
    return 0;
}

static cu_node *lower_decl(lower *l, CXCursor c)
{
    cu_node *n = node(l, CU_N_DECL, c);
    /* the declaration's place is its name */
    CXFile f;
    unsigned line, col;
    clang_getFileLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
    if (f) { n->loc.line = line; n->loc.col = col; n->loc.end_line = 0; }
    n->name = cx_dup(l, clang_getCursorSpelling(c));
    n->usr = cx_dup(l, clang_getCursorUSR(c));
    int isref = 0;
    CXType t = clang_getCursorType(c);
    n->tclass = (uint8_t)tclass_of(t, &isref);
    if (isref) n->flags |= CU_F_REFTYPE;
    if (clang_isConstQualifiedType(t)) n->flags |= CU_F_CONST;
    n->storage = (uint8_t)storage_of(c);
    if (n->tclass == CU_T_RECORD && !isref) {
        CXCursor d = clang_getNullCursor();
        CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
        if (!clang_Cursor_isNull(decl)) {
            CXCursor def = clang_getCursorDefinition(decl);
            if (!clang_Cursor_isNull(def)) decl = def;
            CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
            clang_visitChildren(clang_Cursor_isNull(tmpl) ? decl : tmpl, find_dtor, &d);
        }
        if (!clang_Cursor_isNull(d)) n->dtor = cx_dup(l, clang_getCursorUSR(d));
    }
    kids k;
    kids_get(&k, c);
    cu_node *init = NULL;
    for (unsigned i = 0; i < k.n; i++) {
        enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
        if (is_ref_kind(kk)) continue;
        if (clang_isExpression(kk)) init = lower_expr(l, k.v[i]);
    }
    kids_free(&k);
    if (init) set_kids(l, n, &init, 1);
    return n;
}

/* A CallExpr: a launch, a construction, or a call. */
/* An argument: what it lowers to; an omitted default argument (a null
 * cursor, or the empty UnexposedExpr) is CU_N_EMPTY; an argument that is
 * there but does not lower (broken code clang recovered from) is CU_N_OTHER,
 * an unknown value, so that rules keyed on an omitted argument (the default
 * stream) do not fire on it. */
static cu_node *lower_arg(lower *l, CXCursor c)
{
    cu_node *a = clang_Cursor_isNull(c) ? NULL : lower_expr(l, c);
    if (a) return a;
    return clang_Cursor_isNull(c) ? node(l, CU_N_EMPTY, clang_getNullCursor()) : node(l, CU_N_OTHER, c);
}

/* An omitted argument whose parameter is a stream with a default
 * (`cudaStream_t stream = 0`, `= nullptr`, `= cudaStreamLegacy`): the
 * default, lowered where it is written, so that the callee sees the legacy
 * stream as it would an explicit 0.  NULL for any other parameter. */
static cu_node *default_stream_arg(lower *l, CXCursor callee, unsigned i)
{
    CXCursor pm = clang_Cursor_getArgument(callee, i);
    if (clang_Cursor_isNull(pm) || tclass_of(clang_getCursorType(pm), NULL) != CU_T_STREAM) return NULL;
    kids k;
    kids_get(&k, pm);
    cu_node *d = NULL;
    for (unsigned j = 0; j < k.n && !d; j++)
        if (clang_isExpression(clang_getCursorKind(k.v[j]))) d = lower_expr(l, k.v[j]);
    kids_free(&k);
    return d;
}

__attribute__((noinline)) static cu_node *lower_call(lower *l, CXCursor c)
{
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    int nargs = clang_Cursor_getNumArguments(c);
    nodes v = { 0 };

    if (rk == CXCursor_Constructor) {
        cu_node *n = node(l, CU_N_CONSTRUCT, c);
        n->usr = cx_dup(l, clang_getCursorUSR(ref));
        if (in_project(l, ref)) n->flags |= CU_F_PROJDECL;
        n->name = cx_dup(l, clang_getCursorSpelling(ref));
        n->tclass = (uint8_t)tclass_of(clang_getCursorType(c), NULL);
        for (int i = 0; i < nargs; i++) nodes_push(l, &v, lower_arg(l, clang_Cursor_getArgument(c, (unsigned)i)));
        set_kids_list(l, n, &v);
        return n;
    }

    kids k;
    kids_get(&k, c);
    /* kernel<<<...>>>(...): the second child is the configuration call */
    if (k.n >= 2 && clang_getCursorKind(k.v[1]) == CXCursor_CallExpr) {
        CXString s = clang_getCursorSpelling(k.v[1]);
        const char *cn = clang_getCString(s);
        int is_cfg = cn && (strcmp(cn, "__cudaPushCallConfiguration") == 0 ||
                            strcmp(cn, "cudaConfigureCall") == 0);
        clang_disposeString(s);
        if (is_cfg) {
            cu_node *n = node(l, CU_N_LAUNCH, c);
            n->name = cx_dup(l, clang_getCursorSpelling(c));
            n->usr = callee_usr(l, ref);
            int nc = clang_Cursor_getNumArguments(k.v[1]);
            for (int i = 0; i < 4; i++) {
                cu_node *a = i < nc ? lower_expr(l, clang_Cursor_getArgument(k.v[1], (unsigned)i)) : NULL;
                nodes_push(l, &v, a ? a : node(l, CU_N_EMPTY, clang_getNullCursor()));
            }
            for (int i = 0; i < nargs; i++) nodes_push(l, &v, lower_arg(l, clang_Cursor_getArgument(c, (unsigned)i)));
            set_kids_list(l, n, &v);
            kids_free(&k);
            return n;
        }
    }

    cu_node *n = node(l, CU_N_CALL, c);
    n->name = cx_dup(l, clang_getCursorSpelling(c));
    cu_node *obj = NULL;
    int first_arg = 0;
    if (clang_Cursor_isNull(ref) || rk == CXCursor_OverloadedDeclRef) {
        n->flags |= CU_F_DEPENDENT;
        char *on = NULL;
        int of = 0;
        if (k.n && overloaded_name(l, k.v[0], &on, &of) && on) { n->name = on; n->flags |= (uint16_t)of; }
    } else if (rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl || rk == CXCursor_FieldDecl) {
        /* a call through a variable: a function pointer, a functor, a template parameter */
        obj = node(l, CU_N_REF, k.n ? k.v[0] : c);
        obj->name = cx_dup(l, clang_getCursorSpelling(ref));
        obj->usr = cx_dup(l, clang_getCursorUSR(ref));
        obj->storage = (uint8_t)storage_of(ref);
        obj->tclass = (uint8_t)tclass_of(clang_getCursorType(ref), NULL);
        n->usr = obj->usr;
        n->flags |= CU_F_DEPENDENT;
        first_arg = 0;
    } else {
        n->usr = callee_usr(l, ref);
        if (in_project(l, ref)) n->flags |= CU_F_PROJDECL;
        if (is_noreturn(l, ref)) n->flags |= CU_F_NORETURN;
    }
    if (n->name && strcmp(n->name, "operator()") == 0 && nargs >= 1) {
        obj = lower_expr(l, clang_Cursor_getArgument(c, 0));
        first_arg = 1;
    } else if (!obj && k.n && clang_getCursorKind(k.v[0]) == CXCursor_MemberRefExpr) {
        kids mk;
        kids_get(&mk, k.v[0]);
        obj = mk.n ? lower_expr(l, mk.v[0]) : NULL;
        kids_free(&mk);
    }
    nodes_push(l, &v, obj ? obj : node(l, CU_N_EMPTY, clang_getNullCursor()));
    if (nargs >= 0) {
        int nparams = is_function_kind(rk) ? clang_Cursor_getNumArguments(ref) : -1;
        for (int i = first_arg; i < nargs; i++) {
            CXCursor ac = clang_Cursor_getArgument(c, (unsigned)i);
            cu_node *a = lower_expr(l, ac);
            if (a && a->kind == CU_N_EMPTY && i < nparams) {
                cu_node *d = default_stream_arg(l, ref, (unsigned)i);
                if (d) a = d;
            }
            if (a && i < nparams) {
                /* T& (not const T&): the callee may assign the variable */
                CXType pt = clang_getCursorType(clang_Cursor_getArgument(ref, (unsigned)i));
                if (pt.kind == CXType_LValueReference &&
                    !clang_isConstQualifiedType(clang_getPointeeType(pt)))
                    a->flags |= CU_F_OUTARG;
            }
            nodes_push(l, &v, a ? a : lower_arg(l, ac));
        }
    } else {
        for (unsigned i = 1; i < k.n; i++) {
            cu_node *a = lower_expr(l, k.v[i]);
            if (a) nodes_push(l, &v, a);
        }
    }
    kids_free(&k);
    set_kids_list(l, n, &v);
    return n;
}

/* Children lowered in order, NULLs dropped. */
static cu_node *lower_generic(lower *l, CXCursor c, int kind, int as_stmt)
{
    kids k;
    kids_get(&k, c);
    cu_node *tmp[8], **v = k.n <= 8 ? tmp : cg_xmalloc(k.n * sizeof *v);
    unsigned nv = 0;
    for (unsigned i = 0; i < k.n; i++) {
        cu_node *x = as_stmt ? lower_stmt(l, k.v[i]) : lower_expr(l, k.v[i]);
        if (x) v[nv++] = x;
    }
    cu_node *n = NULL;
    if (nv || kind != CU_N_OTHER) {
        n = node(l, kind, c);
        set_kids(l, n, v, nv);
    }
    if (v != tmp) free(v);
    kids_free(&k);
    return n;
}

/* Deeper than CU_MAX_NEST: an unknown value (or a statement that does
 * nothing the analysis sees) in place of the construct, and the place is
 * remembered for the function's "too deeply nested" error. */
static cu_node *too_deep(lower *l, CXCursor c)
{
    cu_node *n = node(l, CU_N_OTHER, c);
    if (!l->deep) {
        l->deep = 1;
        l->deep_at = n->loc;
    }
    return n;
}

static cu_node *lower_expr_at(lower *l, CXCursor c);
static cu_node *lower_stmt_at(lower *l, CXCursor c);

/* Every recursive path of the lowering goes through these two. */
static cu_node *lower_expr(lower *l, CXCursor c)
{
    if (clang_Cursor_isNull(c)) return NULL;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isInvalid(k) || is_ref_kind(k)) return NULL;   /* a reference or attribute: nothing to lower */
    if (l->depth >= CU_MAX_NEST) return too_deep(l, c);
    l->depth++;
    cu_node *n = lower_expr_at(l, c);
    l->depth--;
    return n;
}

static cu_node *lower_stmt(lower *l, CXCursor c)
{
    if (clang_Cursor_isNull(c)) return NULL;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isInvalid(k) || is_ref_kind(k)) return NULL;   /* a reference or attribute: nothing to lower */
    if (l->depth >= CU_MAX_NEST) return too_deep(l, c);
    l->depth++;
    cu_node *n = lower_stmt_at(l, c);
    l->depth--;
    return n;
}

static cu_node *lower_expr_at(lower *l, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_ref_kind(k)) return NULL;
    switch (k) {
    case CXCursor_CallExpr:
        return lower_call(l, c);
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(c);
        enum CXCursorKind rk = clang_getCursorKind(ref);
        if (clang_Cursor_isNull(ref) || rk == CXCursor_OverloadedDeclRef) return NULL;
        cu_node *n = node(l, CU_N_REF, c);
        n->name = cx_dup(l, clang_getCursorSpelling(ref));
        n->storage = (uint8_t)storage_of(ref);
        if (rk == CXCursor_EnumConstantDecl) {
            n->ival = clang_getEnumConstantDeclValue(ref);
            n->flags |= CU_F_IVAL;
            if (n->ival != 0 && is_status_enum(clang_getCursorSemanticParent(ref))) n->flags |= CU_F_STATUS;
            n->tclass = CU_T_ARITH;
            return n;
        }
        if (is_function_kind(rk)) {
            n->usr = callee_usr(l, ref);
            if (in_project(l, ref)) n->flags |= CU_F_PROJDECL;
            return n;
        }
        n->usr = cx_dup(l, clang_getCursorUSR(ref));
        CXType t = clang_getCursorType(ref);
        n->tclass = (uint8_t)tclass_of(t, NULL);
        if (clang_isConstQualifiedType(t)) {
            n->flags |= CU_F_CONST;
            if (n->tclass == CU_T_ARITH && rk == CXCursor_VarDecl && eval_int(ref, &n->ival))
                n->flags |= CU_F_IVAL;
        }
        return n;
    }
    case CXCursor_MemberRefExpr: {
        CXCursor ref = clang_getCursorReferenced(c);
        cu_node *n = node(l, CU_N_MEMBER, c);
        n->name = cx_dup(l, clang_getCursorSpelling(c));
        if (!clang_Cursor_isNull(ref)) {
            n->usr = cx_dup(l, clang_getCursorUSR(ref));
            n->storage = (uint8_t)storage_of(ref);
            n->tclass = (uint8_t)tclass_of(clang_getCursorType(ref), NULL);
        }
        kids kk;
        kids_get(&kk, c);
        if (kk.n) {
            cu_node *b = lower_expr(l, kk.v[0]);
            if (b) set_kids(l, n, &b, 1);
        }
        kids_free(&kk);
        return n;
    }
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr: {
        cu_node *n = node(l, CU_N_INT, c);
        if (eval_int(c, &n->ival)) n->flags |= CU_F_IVAL;
        n->tclass = CU_T_ARITH;
        return n;
    }
    case CXCursor_CXXNullPtrLiteralExpr:
#if CINDEX_VERSION_MINOR >= 64
    case CXCursor_GNUNullExpr:
#endif
        return node(l, CU_N_NULL, c);
    case CXCursor_StringLiteral:
        return node(l, CU_N_STRING, c);
    case CXCursor_UnaryOperator: {
        cu_node *n = lower_generic(l, c, CU_N_UNARY, 0);
        n->op = (uint8_t)clang_getCursorUnaryOperatorKind(c);
        return n;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        cu_node *n = lower_generic(l, c, CU_N_BINARY, 0);
        n->op = (uint8_t)clang_getCursorBinaryOperatorKind(c);
        return n;
    }
    case CXCursor_ConditionalOperator:
        return lower_generic(l, c, CU_N_CONDOP, 0);
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        cu_node *n = lower_generic(l, c, CU_N_CAST, 0);
        n->tclass = (uint8_t)tclass_of(clang_getCursorType(c), NULL);
        return n;
    }
    case CXCursor_LambdaExpr: {
        kids kk;
        kids_get(&kk, c);
        cu_node *body = NULL;
        for (unsigned i = 0; i < kk.n; i++)
            if (clang_getCursorKind(kk.v[i]) == CXCursor_CompoundStmt) body = lower_stmt(l, kk.v[i]);
        kids_free(&kk);
        cu_node *n = node(l, CU_N_LAMBDA, c);
        if (body) set_kids(l, n, &body, 1);
        return n;
    }
    case CXCursor_UnaryExpr: {
        cu_node *n = node(l, CU_N_SIZEOF, c);
        if (eval_int(c, &n->ival)) n->flags |= CU_F_IVAL;
        return n;
    }
    case CXCursor_CXXThrowExpr:
        return lower_generic(l, c, CU_N_THROW, 0);
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr: {
        kids kk;
        kids_get(&kk, c);
        cu_node *n = NULL;
        if (kk.n == 0) {
            CXFile f;
            clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
            if (!f) n = node(l, CU_N_EMPTY, clang_getNullCursor());   /* a default argument */
            else {
                /* __null and friends */
                CXType t = clang_getCanonicalType(clang_getCursorType(c));
                int64_t iv;
                if ((t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) && eval_int(c, &iv)) {
                    n = node(l, CU_N_INT, c);
                    n->ival = iv;
                    n->flags |= CU_F_IVAL;
                }
            }
        } else {
            char *on = NULL;
            int of = 0;
            CXCursor first = kk.v[0];
            CXType ft = clang_getCursorType(first);
            if (k == CXCursor_UnexposedExpr && ft.kind == CXType_Overload &&
                clang_getCursorType(c).kind != CXType_Overload && overloaded_name(l, first, &on, &of) && on) {
                /* a call to an unresolved or undeclared function: matched by name */
                n = node(l, CU_N_CALL, c);
                n->name = on;
                n->flags |= CU_F_DEPENDENT | (uint16_t)of;
                nodes v = { 0 };
                nodes_push(l, &v, node(l, CU_N_EMPTY, clang_getNullCursor()));
                for (unsigned i = 1; i < kk.n; i++) nodes_push(l, &v, lower_arg(l, kk.v[i]));
                set_kids_list(l, n, &v);
            } else if (kk.n == 1) {
                n = lower_expr(l, first);
            } else {
                n = lower_generic(l, c, CU_N_OTHER, 0);
            }
        }
        kids_free(&kk);
        return n;
    }
    default:
        if (clang_isDeclaration(k)) {
            if (k == CXCursor_VarDecl) return lower_decl(l, c);
            return NULL;
        }
        if (clang_isStatement(k)) return lower_stmt_at(l, c);
        return lower_generic(l, c, CU_N_OTHER, 0);
    }
}

static cu_node *lower_stmt_at(lower *l, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_ref_kind(k)) return NULL;
    switch (k) {
    case CXCursor_CompoundStmt:
        return lower_generic(l, c, CU_N_COMPOUND, 1);
    case CXCursor_DeclStmt: {
        cu_node *n = lower_generic(l, c, CU_N_OTHER, 1);
        return n && n->nkids == 1 ? n->kids[0] : n;
    }
    case CXCursor_VarDecl:
        return lower_decl(l, c);
    case CXCursor_NullStmt:
        return NULL;
    case CXCursor_IfStmt: {
        kids kk;
        kids_get(&kk, c);
        unsigned i = 0;
        cu_node *pre[8];
        unsigned npre = 0;
        /* C++17 init statements and condition variables come first */
        while (i + 2 <= kk.n && i < 8) {
            enum CXCursorKind ck = clang_getCursorKind(kk.v[i]);
            if (ck != CXCursor_DeclStmt && ck != CXCursor_VarDecl) break;
            cu_node *d = lower_stmt(l, kk.v[i]);
            if (d) pre[npre++] = d;
            i++;
        }
        cu_node *n = node(l, CU_N_IF, c);
        cu_node *v[3];
        unsigned nv = 0;
        for (; i < kk.n && nv < 3; i++) {
            cu_node *x = nv == 0 ? lower_expr(l, kk.v[i]) : lower_stmt(l, kk.v[i]);
            v[nv++] = x ? x : node(l, CU_N_COMPOUND, clang_getNullCursor());
        }
        while (nv < 2) v[nv++] = node(l, CU_N_COMPOUND, clang_getNullCursor());
        set_kids(l, n, v, nv);
        kids_free(&kk);
        if (!npre) return n;
        cu_node *blk = node(l, CU_N_COMPOUND, c);
        pre[npre++] = n;
        set_kids(l, blk, pre, npre);
        return blk;
    }
    case CXCursor_WhileStmt:
    case CXCursor_ForStmt:
    case CXCursor_CXXForRangeStmt:
        return lower_generic(l, c, CU_N_LOOP, 1);
    case CXCursor_DoStmt: {
        cu_node *n = lower_generic(l, c, CU_N_LOOP, 1);
        n->op = 1;   /* the body is the first child */
        return n;
    }
    case CXCursor_SwitchStmt:
        return lower_generic(l, c, CU_N_SWITCH, 1);
    case CXCursor_ReturnStmt:
        return lower_generic(l, c, CU_N_RETURN, 0);
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        return node(l, CU_N_BREAK, c);
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        return node(l, CU_N_GOTO, c);
    case CXCursor_CXXTryStmt: {
        /* the try block runs; handlers only on an exception */
        kids kk;
        kids_get(&kk, c);
        cu_node *n = kk.n ? lower_stmt(l, kk.v[0]) : NULL;
        kids_free(&kk);
        return n;
    }
    case CXCursor_CXXCatchStmt:
        return NULL;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: {
        cu_node *n = lower_generic(l, c, CU_N_OTHER, 1);
        if (!n) n = node(l, CU_N_OTHER, c);
        n->op = 1;   /* a case label: the switch walk starts a new path here */
        return n;
    }
    case CXCursor_LabelStmt:
        return lower_generic(l, c, CU_N_OTHER, 1);
    default:
        if (clang_isExpression(k)) return lower_expr_at(l, c);
        if (clang_isDeclaration(k)) return NULL;
        return lower_generic(l, c, CU_N_OTHER, 1);
    }
}

/* ---- functions ---------------------------------------------------------------- */
/* "ns::Class::name", without a specialisation's template arguments; as long
 * as it is (a name cut short would be looked for under the wrong name). */
static const char *qualname(lower *l, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    char *q = cg_arena_strdup(l->a, name ? name : "");
    clang_disposeString(s);
    for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p);
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind pk = clang_getCursorKind(p);
        if (pk == CXCursor_TranslationUnit || clang_isInvalid(pk)) break;
        if (pk != CXCursor_Namespace && pk != CXCursor_ClassDecl && pk != CXCursor_StructDecl &&
            pk != CXCursor_ClassTemplate && pk != CXCursor_UnionDecl &&
            pk != CXCursor_ClassTemplatePartialSpecialization)
            continue;
        CXString ps = clang_getCursorSpelling(p);
        const char *pn = clang_getCString(ps);
        q = cg_arena_printf(l->a, "%s::%s", pn && *pn ? pn : "(anonymous)", q);
        clang_disposeString(ps);
    }
    return q;
}

/* The function's body went deeper than CU_MAX_NEST: one error, at the first
 * place it did (once per place, however many translation units include it). */
static void report_too_deep(lower *l, const cu_func *fn)
{
    if (!l->deep) return;
    l->deep = 0;
    cu_report_too_deep(l->p, &l->deep_at, fn->qualname,
                       cg_arena_printf(l->a, "more than %d levels of nested expressions and statements",
                                       CU_MAX_NEST));
}

static void lower_function(lower *l, CXCursor c, int file_idx, CXFile f)
{
    kids k;
    kids_get(&k, c);
    int global = 0, device = 0, host = 0;
    CXCursor body = clang_getNullCursor();
    for (unsigned i = 0; i < k.n; i++) {
        enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
        if (kk == CXCursor_CUDAGlobalAttr) global = 1;
        else if (kk == CXCursor_CUDADeviceAttr) device = 1;
        else if (kk == CXCursor_CUDAHostAttr) host = 1;
        else if (kk == CXCursor_CompoundStmt) body = k.v[i];
    }
    if (global || (device && !host) || clang_Cursor_isNull(body)) { kids_free(&k); return; }

    l->cur_file = f;
    l->cur_idx = file_idx;
    cu_func *fn = cg_arena_alloc(l->a, sizeof *fn);
    fn->usr = cx_dup(l, clang_getCursorUSR(c));
    if (!fn->usr) { kids_free(&k); return; }
    fn->qualname = qualname(l, c);
    fn->is_ctor = clang_getCursorKind(c) == CXCursor_Constructor;
    fn->is_dtor = clang_getCursorKind(c) == CXCursor_Destructor;
    fn->file = file_idx;
    fn->ptds = l->owner->ptds;
    cu_node *tmp = node(l, CU_N_OTHER, c);
    CXFile nf;
    unsigned line, col;
    clang_getFileLocation(clang_getCursorLocation(c), &nf, &line, &col, NULL);
    fn->loc = tmp->loc;
    fn->loc.line = line;
    fn->loc.col = col;

    int np = 0;
    for (unsigned i = 0; i < k.n; i++) np += clang_getCursorKind(k.v[i]) == CXCursor_ParmDecl;
    if (np) fn->params = cg_arena_alloc(l->a, (size_t)np * sizeof *fn->params);
    np = 0;
    nodes stmts = { 0 };
    l->depth = 0;
    l->deep = 0;
    for (unsigned i = 0; i < k.n; i++) {
        enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
        if (kk == CXCursor_ParmDecl) {
            fn->params[np].name = cx_dup(l, clang_getCursorSpelling(k.v[i]));
            fn->params[np].usr = cx_dup(l, clang_getCursorUSR(k.v[i]));
            fn->params[np].tclass = (uint8_t)tclass_of(clang_getCursorType(k.v[i]), NULL);
            np++;
        } else if (kk == CXCursor_MemberRef && i + 1 < k.n) {
            /* constructor initialiser: field(expr) */
            CXCursor fld = clang_getCursorReferenced(k.v[i]);
            cu_node *lhs = node(l, CU_N_MEMBER, k.v[i]);
            lhs->name = cx_dup(l, clang_getCursorSpelling(k.v[i]));
            if (!clang_Cursor_isNull(fld)) {
                lhs->usr = cx_dup(l, clang_getCursorUSR(fld));
                lhs->tclass = (uint8_t)tclass_of(clang_getCursorType(fld), NULL);
            }
            lhs->storage = CU_S_FIELD;
            cu_node *rhs = lower_expr(l, k.v[i + 1]);
            i++;
            if (!rhs) continue;
            cu_node *as = node(l, CU_N_BINARY, k.v[i]);
            as->op = CXBinaryOperator_Assign;
            cu_node *pair[2] = { lhs, rhs };
            set_kids(l, as, pair, 2);
            nodes_push(l, &stmts, as);
        } else if (kk == CXCursor_TypeRef && i + 1 < k.n && clang_isExpression(clang_getCursorKind(k.v[i + 1])) &&
                   clang_getCursorKind(c) == CXCursor_Constructor) {
            /* base class initialiser */
            cu_node *x = lower_expr(l, k.v[i + 1]);
            i++;
            if (x) nodes_push(l, &stmts, x);
        }
    }
    fn->nparams = np;
    cu_node *b = lower_stmt(l, body);
    if (!b) b = node(l, CU_N_COMPOUND, body);
    if (stmts.n) {
        nodes_push(l, &stmts, b);
        cu_node *blk = node(l, CU_N_COMPOUND, body);
        set_kids_list(l, blk, &stmts);
        b = blk;
    }
    fn->body = b;
    kids_free(&k);
    report_too_deep(l, fn);
    if (l->nfuncs == l->capfuncs) {
        l->capfuncs = l->capfuncs ? l->capfuncs * 2 : 32;
        cu_func **nf2 = cg_arena_alloc(l->a, l->capfuncs * sizeof *nf2);
        if (l->nfuncs) memcpy(nf2, l->funcs, l->nfuncs * sizeof *nf2);
        l->funcs = nf2;
    }
    l->funcs[l->nfuncs++] = fn;
}

static enum CXChildVisitResult top_cb(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    lower *l = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXFile f;
    clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    int idx = file_index(l, f);
    if (idx < 0) return CXChildVisit_Continue;
    switch (k) {
    case CXCursor_Namespace: case CXCursor_LinkageSpec: case CXCursor_ClassDecl:
    case CXCursor_StructDecl: case CXCursor_ClassTemplate: case CXCursor_UnionDecl:
    case CXCursor_ClassTemplatePartialSpecialization: case CXCursor_UnexposedDecl:
        return CXChildVisit_Recurse;
    default:
        if (is_function_kind(k) && clang_isCursorDefinition(c)) lower_function(l, c, idx, f);
        return CXChildVisit_Continue;
    }
}

static void inclusion_cb(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData d)
{
    lower *l = d;
    if (len == 0) return;   /* the main file */
    int idx = file_index(l, f);
    if (idx >= 0) __atomic_store_n(&l->p->files[idx].included, 1, __ATOMIC_RELAXED);
}

void cu_mark_inclusions(cu_project *p, void *tuv)
{
    lower l;
    memset(&l, 0, sizeof l);
    l.p = p;
    l.tu = tuv;
    l.cur_idx = -1;
    clang_getInclusions(l.tu, inclusion_cb, &l);
}

void cu_lower_tu(cu_project *p, cu_file *into, void *tuv)
{
    lower l;
    memset(&l, 0, sizeof l);
    l.p = p;
    l.owner = into;
    l.a = into->arena;
    l.tu = tuv;
    l.cur_idx = -1;
    clang_getInclusions(l.tu, inclusion_cb, &l);
    clang_visitChildren(clang_getTranslationUnitCursor(l.tu), top_cb, &l);
    into->funcs = l.funcs;
    into->nfuncs = l.nfuncs;
}
