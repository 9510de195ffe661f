/* config.h - cglint's configuration files: `[tool.cglint]` in pyproject.toml
 * and `.cglint.toml`, found the way ruff finds its own.
 *
 * Discovery: the configuration of a file is the closest one among its
 * ancestor directories; in one directory `.cglint.toml` wins over
 * pyproject.toml, and a pyproject.toml without `[tool.cglint]` is passed
 * over.  `--config FILE` replaces discovery with one file for everything,
 * `--isolated` uses none.  Globs (per-file-ignores, exclude) and paths
 * (cuda-path, compile-commands) are relative to the file's directory.
 *
 * Validation is strict: an unknown key, a value of the wrong type or an
 * unknown rule code is one error "FILE:LINE: message" and the run stops
 * (exit 2).  Only TOML syntax is the grammar's (tree-sitter-toml); the
 * meaning is checked here.
 *
 * Rule selection is layered as in ruff: all rules; the file's `select`
 * (replaces), `extend-select` (adds), `ignore` (removes); then the command
 * line's --select, --extend-select, --ignore in the same way; then the
 * file's per-file-ignores for paths they match. */
#ifndef CG_CONFIG_H
#define CG_CONFIG_H
#include <stddef.h>
#include <stdint.h>
#include "core/rules.h"

typedef struct cg_strlist {
    const char **items;
    size_t n;
} cg_strlist;

typedef struct cg_pfi {
    const char *glob;
    cg_strlist codes;
} cg_pfi;

/* One `severity` entry: the rules a code or prefix names take this level. */
typedef struct cg_sev_override {
    const char *code;
    cg_severity level;
} cg_sev_override;

typedef struct cg_config {
    const char *path;          /* the file, as a user would name it */
    const char *dir;           /* its directory, absolute */
    int in_pyproject;          /* the settings are pyproject.toml's [tool.cglint] */
    int has_select;
    cg_strlist select, extend_select, ignore;
    cg_pfi *pfi;
    size_t npfi;
    int has_exclude;           /* `exclude` replaces the default excluded names */
    cg_strlist exclude, extend_exclude;
    const char *cuda_path;     /* absolute, or NULL */
    const char *compile_commands; /* absolute, or NULL */
    cg_strlist include_dirs;   /* C/C++ -I directories, absolute */
    cg_strlist defines;        /* C/C++ -D NAME[=VALUE] */
    const char *std;           /* C/C++ language standard (c++17, gnu11...), or NULL */
    int jobs;                  /* 0: not set */
    const char *cache_dir;     /* the project index's directory, absolute, or NULL */
    const char *output_format; /* a format name (emit.h); NULL: not set */
    int respect_gitignore;     /* -1: not set */
    cg_sev_override *severity; /* [severity] table, in file order (a later, longer code wins) */
    size_t nseverity;
    int fail_on;               /* cg_severity of `fail-on`; -1: not set */
    struct cg_arena *arena;
} cg_config;

/* The keys the loader accepts, NULL-terminated (for messages and docs). */
extern const char *const cg_config_keys[];

/* Load one file.  Returns 0 with *out set; 1 when it is a pyproject.toml
 * with no [tool.cglint] table (*out NULL); -1 with "PATH:LINE: message" in
 * err.  Free with cg_config_free. */
int cg_config_load(cg_config **out, const char *path, char *err, size_t errlen);
/* Parse a document already in memory (tests).  `is_pyproject` selects the
 * [tool.cglint] table. */
int cg_config_parse(cg_config **out, const char *path, const char *text, size_t len,
                    int is_pyproject, char *err, size_t errlen);
void cg_config_free(cg_config *self);

/* Discovery with a cache of directories already looked at. */
typedef struct cg_configs cg_configs;
/* forced: --config FILE (loaded now) or NULL; isolated: no files at all.
 * NULL with a message in err when the forced file cannot be loaded. */
cg_configs *cg_configs_new(const char *forced, int isolated, char *err, size_t errlen);
void cg_configs_free(cg_configs *self);
/* The configuration for absolute directory `abs_dir` (the closest one at or
 * above it), or *out NULL for the defaults.  Returns 0, or -1 with err. */
int cg_configs_find(cg_configs *self, const char *abs_dir, const cg_config **out,
                    char *err, size_t errlen);

/* Rule selection from the command line: comma-separated lists, NULL when
 * the option was not given. */
typedef struct cg_rule_cli {
    const char *select, *extend_select, *ignore;
} cg_rule_cli;
/* The rules that apply to a file at `relpath` (relative to c->dir; NULL to
 * skip per-file-ignores).  c may be NULL.  Codes were validated on load. */
void cg_config_rules(const cg_config *c, const cg_rule_cli *cli, const char *relpath, cg_ruleset *out);
/* The level of rule `rule` under c's `severity` table (the rule's default
 * when c is NULL or names none of it): the most specific code wins, and of
 * equally specific ones the last. */
cg_severity cg_config_severity(const cg_config *c, int rule);
/* "error", "warning", "note" -> cg_severity; -1 when it is none of them. */
int cg_severity_parse(const char *s);
/* Does a glob of a config match `relpath`: the whole path, any tail of it
 * starting at a component, or a directory above it. */
int cg_config_glob(const char *glob, const char *relpath);
#endif
