// What a thread that looks "running" and completes nothing is doing (issue 73).
//
// Two (or --threads) workers spin a lock-free loop in batches of about a microsecond, as `bench`'s timed pacing does,
// and after every batch read the monotonic clock, their own CPU-time clock and the CPU they are on. A coordinator
// opens windows of --window-ms back to back, as `bench` does, and at each window's edges reads every worker's
// published count, its schedstat (running, run-queue wait, switches in), its voluntary and involuntary switches
// (/proc/self/task/<tid>/status) and every CPU's steal (/proc/stat, in USER_HZ ticks). Per window and worker it
// prints one line: operations, the longest gap between two batches by the wall clock, how much of that gap the
// thread's own CPU clock counted, the CPUs the worker was on, the switches and the steal. No harness, no Swift: a
// stall seen here is not DispatchBench's doing.
//
// Build: cc -O2 -pthread -o /tmp/stall_probe tools/research/stall_probe.c
// Run:   /tmp/stall_probe --threads 2 --windows 3000 --window-ms 8 > probe.tsv
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#define MAX_THREADS 16
#define MAX_CPUS 64

typedef struct {
    _Alignas(128) atomic_long published;   // batches completed
    atomic_ulong longest_gap_ns;           // longest wall gap between batches since the last reset
    atomic_ulong gap_cpu_ns;               // the thread's CPU time across that gap
    atomic_int gap_cpu_from, gap_cpu_to;   // the CPU before and after that gap
    atomic_int reset;                      // set by the coordinator at a window's open
    pid_t tid;
} worker_t;

static worker_t workers[MAX_THREADS];
static atomic_int stop_flag;
static atomic_int ready_count;
static long batch_iterations = 3000;

static uint64_t now_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *worker_main(void *arg) {
    worker_t *w = arg;
    w->tid = (pid_t)syscall(SYS_gettid);
    volatile uint64_t sink = 0;
    uint64_t last_wall = now_ns(CLOCK_MONOTONIC), last_cpu = now_ns(CLOCK_THREAD_CPUTIME_ID);
    int last_cpu_id = sched_getcpu();
    atomic_fetch_add(&ready_count, 1);
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        for (long i = 0; i < batch_iterations; i++) sink += (uint64_t)i;  // lock-free, cannot be unfair
        atomic_fetch_add_explicit(&w->published, 1, memory_order_relaxed);
        uint64_t wall = now_ns(CLOCK_MONOTONIC), cpu = now_ns(CLOCK_THREAD_CPUTIME_ID);
        int cpu_id = sched_getcpu();
        if (atomic_exchange_explicit(&w->reset, 0, memory_order_relaxed)) {
            atomic_store_explicit(&w->longest_gap_ns, 0, memory_order_relaxed);
        } else if (wall - last_wall > atomic_load_explicit(&w->longest_gap_ns, memory_order_relaxed)) {
            atomic_store_explicit(&w->longest_gap_ns, wall - last_wall, memory_order_relaxed);
            atomic_store_explicit(&w->gap_cpu_ns, cpu - last_cpu, memory_order_relaxed);
            atomic_store_explicit(&w->gap_cpu_from, last_cpu_id, memory_order_relaxed);
            atomic_store_explicit(&w->gap_cpu_to, cpu_id, memory_order_relaxed);
        }
        last_wall = wall;
        last_cpu = cpu;
        last_cpu_id = cpu_id;
    }
    return NULL;
}

typedef struct { uint64_t running, runqueue, switches, voluntary, involuntary; } sched_t;

static void read_sched(pid_t tid, sched_t *s) {
    char path[96], buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
    FILE *f = fopen(path, "r");
    if (f) { if (fscanf(f, "%lu %lu %lu", &s->running, &s->runqueue, &s->switches) != 3) s->running = 0; fclose(f); }
    snprintf(path, sizeof path, "/proc/self/task/%d/status", tid);
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0) close(fd);
    if (n > 0) {
        buf[n] = 0;
        char *v = strstr(buf, "\nvoluntary_ctxt_switches:"), *nv = strstr(buf, "nonvoluntary_ctxt_switches:");
        if (v) s->voluntary = strtoull(v + 25, NULL, 10);
        if (nv) s->involuntary = strtoull(nv + 28, NULL, 10);
    }
}

// Every CPU's steal in USER_HZ ticks; returns the number of CPUs.
static int read_steal(uint64_t steal[MAX_CPUS]) {
    FILE *f = fopen("/proc/stat", "r");
    char line[512];
    int cpus = 0;
    while (f && fgets(line, sizeof line, f)) {
        int cpu;
        uint64_t v[8];
        if (sscanf(line, "cpu%d %lu %lu %lu %lu %lu %lu %lu %lu", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7]) == 9 && cpu < MAX_CPUS) {
            steal[cpu] = v[7];
            cpus = cpu + 1;
        }
    }
    if (f) fclose(f);
    return cpus;
}

int main(int argc, char **argv) {
    int threads = 2, windows = 3000;
    double window_ms = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--windows")) windows = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--window-ms")) window_ms = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--batch")) batch_iterations = atol(argv[i + 1]);
        else { fprintf(stderr, "usage: %s [--threads N] [--windows N] [--window-ms MS] [--batch N]\n", argv[0]); return 64; }
    }
    if (threads < 1 || threads > MAX_THREADS) { fprintf(stderr, "threads: 1 to %d\n", MAX_THREADS); return 64; }
    pthread_t handles[MAX_THREADS];
    for (int t = 0; t < threads; t++) pthread_create(&handles[t], NULL, worker_main, &workers[t]);
    while (atomic_load(&ready_count) < threads) usleep(20);
    printf("window\tthread\tops_batches\twindow_ns\trunning_ns\trunqueue_ns\tswitches_in\tvoluntary\tinvoluntary"
           "\tlongest_gap_ns\tgap_cpu_ns\tgap_cpu_from\tgap_cpu_to\tsteal_ticks_by_cpu\n");
    uint64_t window_ns = (uint64_t)(window_ms * 1e6);
    for (int n = 0; n < windows; n++) {
        sched_t before[MAX_THREADS] = {0}, after[MAX_THREADS] = {0};
        uint64_t steal_before[MAX_CPUS] = {0}, steal_after[MAX_CPUS] = {0};
        long count_before[MAX_THREADS];
        int cpus = read_steal(steal_before);
        for (int t = 0; t < threads; t++) read_sched(workers[t].tid, &before[t]);
        for (int t = 0; t < threads; t++) atomic_store(&workers[t].reset, 1);
        uint64_t opened = now_ns(CLOCK_MONOTONIC);
        for (int t = 0; t < threads; t++) count_before[t] = atomic_load(&workers[t].published);
        struct timespec until = {.tv_sec = (time_t)((opened + window_ns) / 1000000000u),
                                 .tv_nsec = (long)((opened + window_ns) % 1000000000u)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
        uint64_t closed = now_ns(CLOCK_MONOTONIC);
        long count_after[MAX_THREADS];
        for (int t = 0; t < threads; t++) count_after[t] = atomic_load(&workers[t].published);
        for (int t = 0; t < threads; t++) read_sched(workers[t].tid, &after[t]);
        read_steal(steal_after);
        char steal_text[256] = "";
        for (int c = 0; c < cpus; c++) {
            char part[32];
            snprintf(part, sizeof part, "%s%lu", c ? "," : "", steal_after[c] - steal_before[c]);
            strncat(steal_text, part, sizeof steal_text - strlen(steal_text) - 1);
        }
        for (int t = 0; t < threads; t++) {
            printf("%d\t%d\t%ld\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu\t%d\t%d\t%s\n", n, t, count_after[t] - count_before[t],
                   closed - opened, after[t].running - before[t].running, after[t].runqueue - before[t].runqueue,
                   after[t].switches - before[t].switches, after[t].voluntary - before[t].voluntary,
                   after[t].involuntary - before[t].involuntary, atomic_load(&workers[t].longest_gap_ns),
                   atomic_load(&workers[t].gap_cpu_ns), atomic_load(&workers[t].gap_cpu_from),
                   atomic_load(&workers[t].gap_cpu_to), steal_text);
        }
    }
    atomic_store(&stop_flag, 1);
    for (int t = 0; t < threads; t++) pthread_join(handles[t], NULL);
    return 0;
}
