/* server.h - `cglint server`: a language server (LSP 3.17 over stdio). */
#ifndef CG_SERVER_H
#define CG_SERVER_H
/* argv[0] is "server".  Returns the process exit status: 0 after
 * shutdown + exit, 1 after an exit without shutdown (the LSP rule), 2 on
 * a usage error. */
int cg_server_main(int argc, char **argv);
#endif
