/* cu_shim.h - the shim headers compiled into the binary (see shim/embed.py;
 * the table is generated at build time from the headers in src/cuda/shim/). */
#ifndef CG_CU_SHIM_H
#define CG_CU_SHIM_H
typedef struct cu_shim_file { const char *name; const char *text; } cu_shim_file;
extern const cu_shim_file cu_shim_files[];
extern const unsigned cu_shim_nfiles;
#endif
