/* replay_main.c - a main for the fuzz harnesses without libFuzzer: each
 * argument (a file, or a directory of files) is run through
 * LLVMFuzzerTestOneInput once.  Built in every build with tests: ctest
 * replays tests/fuzz/regressions/<harness>/ and the seed corpus with it
 * (under ASan and UBSan in build-asan/).  Exit 0 when every input ran;
 * a crash is the sanitizer's or the signal's, after the input's name.
 * FUZZ_REPLAY_QUIET=1: no timing line per input; FUZZ_REPLAY_TIMEOUT=N:
 * seconds an input may take (default 60), past which it is a failure (exit
 * 3); FUZZ_REPLAY_RSS_MB=N: memory it may take (default 3072; exit 4). */
#include "fuzz_common.h"
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* A hang or a runaway is a failure too: each input gets FUZZ_REPLAY_TIMEOUT
 * seconds (default 60; libFuzzer's -timeout in scripts/fuzz is 10, 30 for
 * C/C++) and FUZZ_REPLAY_RSS_MB of memory (default 3072, libFuzzer's
 * -rss_limit_mb in scripts/fuzz), checked once a second. */
static const char *current;
static unsigned timeout_s = 60, ticks;
static long rss_limit_mb = 3072;

static void say(const char *a, const char *b)
{
    if (write(STDERR_FILENO, a, strlen(a)) < 0 || write(STDERR_FILENO, current, strlen(current)) < 0 ||
        write(STDERR_FILENO, b, strlen(b)) < 0) {}
}

static long rss_mb(void)
{
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    long pages = 0, i = 0;
    while (buf[i] && buf[i] != ' ') i++;          /* skip the size: the second field is resident */
    while (buf[i] == ' ') i++;
    for (; buf[i] >= '0' && buf[i] <= '9'; i++) pages = pages * 10 + (buf[i] - '0');
    return pages * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

static void on_tick(int sig)
{
    (void)sig;
    if (!current) return;
    if (rss_mb() > rss_limit_mb) { say("replay: OUT OF MEMORY: ", " went past FUZZ_REPLAY_RSS_MB\n"); _exit(4); }
    if (++ticks > timeout_s) { say("replay: TIMEOUT: ", " ran past FUZZ_REPLAY_TIMEOUT (a hang?)\n"); _exit(3); }
}

static int run_file(const char *path, int verbose)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return -1; }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    /* the input in a buffer of exactly its size, as libFuzzer gives it */
    unsigned char *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    /* named before it runs: a crash report follows its input's name */
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ticks = 0;
    current = path;
    LLVMFuzzerTestOneInput(exact, n);
    current = NULL;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (verbose)
        fprintf(stderr, "replay: ok, %.0f ms\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

int main(int argc, char **argv)
{
    int verbose = getenv("FUZZ_REPLAY_QUIET") == NULL;
    const char *t = getenv("FUZZ_REPLAY_TIMEOUT");
    if (t && atoi(t) > 0) timeout_s = (unsigned)atoi(t);
    const char *m = getenv("FUZZ_REPLAY_RSS_MB");
    if (m && atol(m) > 0) rss_limit_mb = atol(m);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 1, 0 }, { 1, 0 } };
    setitimer(ITIMER_REAL, &it, NULL);
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    size_t ran = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { fprintf(stderr, "replay: no %s\n", argv[i]); bad = 1; continue; }
        if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[i], verbose) != 0; ran++; continue; }
        DIR *d = opendir(argv[i]);
        if (!d) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); bad = 1; continue; }
        char **names = NULL;
        size_t nn = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            names = realloc(names, (nn + 1) * sizeof *names);
            if (asprintf(&names[nn++], "%s/%s", argv[i], e->d_name) < 0) abort();
        }
        closedir(d);
        if (nn) qsort(names, nn, sizeof *names, cmp);
        for (size_t k = 0; k < nn; k++) {
            struct stat fs;
            if (stat(names[k], &fs) == 0 && S_ISREG(fs.st_mode)) { bad |= run_file(names[k], verbose) != 0; ran++; }
            free(names[k]);
        }
        free(names);
    }
    fprintf(stderr, "replay: %zu input%s run%s\n", ran, ran == 1 ? "" : "s", bad ? ", with errors" : "");
    return bad ? 1 : 0;
}
