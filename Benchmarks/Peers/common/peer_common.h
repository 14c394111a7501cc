/*
 * Shared plumbing for the peer benchmarks (GNUstep in Objective-C, Qt in C++):
 * option parsing, the clock, /proc memory readings and the JSON line format.
 * Plain C so both languages include it; static functions so each peer is one
 * translation unit and needs no extra object files.
 *
 * Output contract (identical to `undokit-bench --json`): one object per line,
 * the six required keys first and in this order, optional keys after them:
 *   {"impl":"qt","workload":"W1","phase":"register","n":1000000,
 *    "ns_per_op":123.4,"peak_rss_kb":5678, ...}
 */
#ifndef PEER_COMMON_H
#define PEER_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const char *workload;   /* "W1" ... "W5" */
    long n;                 /* actions per workload */
    int repetitions;        /* median and min are reported */
    long w5_calls;          /* cap on measured removeAllActions(withTarget:) calls; <0 = all */
} peer_options;

static void peer_usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s --workload W1|W2|W3|W4|W5 [--n N] [--repetitions K] [--w5-calls C]\n",
            argv0);
    exit(2);
}

static peer_options peer_parse(int argc, char **argv)
{
    peer_options o = { "W1", 1000000, 1, -1 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) peer_usage(argv[0]);
        if (strcmp(a, "--workload") == 0) o.workload = argv[++i];
        else if (strcmp(a, "--n") == 0) o.n = atol(argv[++i]);
        else if (strcmp(a, "--repetitions") == 0) o.repetitions = atoi(argv[++i]);
        else if (strcmp(a, "--w5-calls") == 0) o.w5_calls = atol(argv[++i]);
        else peer_usage(argv[0]);
    }
    if (o.n < 100 || o.repetitions < 1) peer_usage(argv[0]);
    return o;
}

static double peer_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Reads one "Key:   123 kB" line of /proc/self/status; -1 if unavailable. */
static long peer_status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    size_t klen = strlen(key);
    long value = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            value = atol(line + klen + 1);
            break;
        }
    }
    fclose(f);
    return value;
}

static long peer_peak_rss_kb(void) { return peer_status_kb("VmHWM"); }
static long peer_rss_kb(void) { return peer_status_kb("VmRSS"); }

static int peer_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One measured phase: ns per operation for every repetition. */
typedef struct {
    const char *phase;
    long n;                 /* operations the time is divided by */
    double samples[64];
    int count;
    double bytes_per_action; /* <0 = not reported */
    const char *extra_key;  /* optional numeric keys after the six (NULL = none) */
    double extra;
    const char *extra2_key;
    double extra2;
} peer_phase;

static void peer_record(peer_phase *p, double ns_per_op)
{
    if (p->count < 64) p->samples[p->count++] = ns_per_op;
}

/* The median of a phase's samples (sorts them). */
static double peer_median(peer_phase *p)
{
    if (p->count == 0) return 0;
    qsort(p->samples, (size_t)p->count, sizeof(double), peer_cmp_double);
    return (p->count % 2) ? p->samples[p->count / 2]
                          : (p->samples[p->count / 2 - 1] + p->samples[p->count / 2]) / 2;
}

static void peer_emit(const char *impl, const char *workload, peer_phase *p, const char *note)
{
    if (p->count == 0) return;
    double median = peer_median(p);
    printf("{\"impl\":\"%s\",\"workload\":\"%s\",\"phase\":\"%s\",\"n\":%ld,"
           "\"ns_per_op\":%.1f,\"peak_rss_kb\":%ld,\"min_ns_per_op\":%.1f,\"repetitions\":%d",
           impl, workload, p->phase, p->n, median, peer_peak_rss_kb(), p->samples[0], p->count);
    if (p->bytes_per_action >= 0) printf(",\"bytes_per_action\":%.1f", p->bytes_per_action);
    if (p->extra_key) printf(",\"%s\":%.1f", p->extra_key, p->extra);
    if (p->extra2_key) printf(",\"%s\":%.1f", p->extra2_key, p->extra2);
    if (note) printf(",\"note\":\"%s\"", note);
    printf("}\n");
    fflush(stdout);
}

/* Wrong results must never be reported as timings: stop the whole run. */
#define PEER_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#endif
