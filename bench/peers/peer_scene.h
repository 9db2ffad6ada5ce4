/* The real-time peer scene, shared by every peer harness of `make bench` (scenario 11).
 *
 *   HARNESS SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...
 *
 * Plays EMITTERS looping positional voices (the sounds in turn) and MUSIC.ogg streamed and
 * looping, for SECONDS of wall time, moving every voice every 10 ms on the calling thread (the
 * game thread). Each position call is timed with CLOCK_MONOTONIC; the nanoseconds go to
 * SAMPLES_OUT as native int64s. Prints "key value" lines: cpu_seconds (process user + system
 * time over the played seconds), game_thread_cpu_seconds (the game thread's own share of it:
 * the position calls, the loop and its sleeps), audio_seconds, peak_rss_kib (VmHWM),
 * start_rss_kib (VmRSS before the library started), position_calls, sample_rate, threads (at the
 * end), "mapping_kib NAME KIB" lines (resident memory by mapping, from /proc/self/smaps: a file's
 * mappings under its file name, unnamed ones as [anonymous]), and whatever the harness adds.
 * Exit status 0 only if everything played.
 *
 * The emitters move as the bench's raw C baseline moves them (bb_emitter_position). */
#ifndef PEER_SCENE_H
#define PEER_SCENE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <time.h>

#define PEER_TICK_NANOSECONDS 10000000LL

typedef struct {
    double seconds;
    int emitter_count;
    const char *music_path;
    const char *samples_path;
    const char *const *sound_paths;
    int sound_count;
    int64_t *samples;
    long sample_count;
    long sample_capacity;
    double cpu_start_seconds;
    double game_thread_cpu_seconds;
    long start_rss_kib;
} peer_scene;

static long peer_status_kib(const char *key) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    size_t length = strlen(key);
    if (!status) return -1;
    while (fgets(line, sizeof(line), status)) {
        if (strncmp(line, key, length) == 0) kib = atol(line + length);
    }
    fclose(status);
    return kib;
}

static int peer_scene_parse(peer_scene *scene, int argc, char **argv) {
    memset(scene, 0, sizeof(*scene));
    if (argc < 6) {
        fprintf(stderr, "usage: %s SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...\n", argv[0]);
        return -1;
    }
    scene->seconds = atof(argv[1]);
    scene->emitter_count = atoi(argv[2]);
    scene->music_path = argv[3];
    scene->samples_path = argv[4];
    scene->sound_paths = (const char *const *)(argv + 5);
    scene->sound_count = argc - 5;
    if (scene->seconds <= 0 || scene->emitter_count <= 0) {
        fprintf(stderr, "%s: SECONDS and EMITTERS must be positive\n", argv[0]);
        return -1;
    }
    long ticks = (long)(scene->seconds * 100.0) + 1;
    scene->sample_capacity = ticks * scene->emitter_count;
    scene->samples = (int64_t *)calloc((size_t)scene->sample_capacity, sizeof(int64_t));
    scene->start_rss_kib = peer_status_kib("VmRSS:");
    return scene->samples ? 0 : -1;
}

static void peer_emitter_position(int index, double seconds, float out_xyz[3]) {
    /* bb_emitter_position of Sources/BenchBaseline, in seconds instead of frames. */
    float time = (float)seconds;
    float radius = 2.0f + (float)(index % 40);
    float speed = 0.2f + 0.05f * (float)(index % 17);
    float angle = 0.37f * (float)index + speed * time;
    out_xyz[0] = radius * cosf(angle);
    out_xyz[1] = 0.5f * (float)(index % 3) - 0.5f;
    out_xyz[2] = radius * sinf(angle);
}

static inline float peer_emitter_gain(int index) { return 0.3f + 0.07f * (float)(index % 10); }

static int64_t peer_now_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static double peer_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
}

static double peer_thread_cpu_seconds(void) {
    struct timespec used;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used);
    return (double)used.tv_sec + (double)used.tv_nsec * 1e-9;
}

/* Runs the game loop: every 10 ms, `move(index, xyz, context)` for each emitter, each call timed.
 * Returns the played wall seconds. */
static double peer_scene_run(peer_scene *scene, void (*move)(int index, const float xyz[3], void *context),
                             void *context) {
    long ticks = (long)(scene->seconds * 100.0);
    scene->cpu_start_seconds = peer_cpu_seconds();
    double thread_start_seconds = peer_thread_cpu_seconds();
    int64_t start = peer_now_nanoseconds();
    for (long tick = 1; tick <= ticks; tick++) {
        int64_t due = start + tick * PEER_TICK_NANOSECONDS;
        struct timespec wake = {(time_t)(due / 1000000000LL), (long)(due % 1000000000LL)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL) != 0) {
        }
        double seconds = (double)tick * 0.01;
        for (int index = 0; index < scene->emitter_count; index++) {
            float xyz[3];
            peer_emitter_position(index, seconds, xyz);
            int64_t before = peer_now_nanoseconds();
            move(index, xyz, context);
            int64_t after = peer_now_nanoseconds();
            if (scene->sample_count < scene->sample_capacity) scene->samples[scene->sample_count++] = after - before;
        }
    }
    scene->game_thread_cpu_seconds = peer_thread_cpu_seconds() - thread_start_seconds;
    return (double)(peer_now_nanoseconds() - start) * 1e-9;
}

/* Threads of this process now. */
static int peer_thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    int count = 0;
    if (!tasks) return 0;
    for (struct dirent *entry = readdir(tasks); entry; entry = readdir(tasks)) count += entry->d_name[0] != '.';
    closedir(tasks);
    return count;
}

/* Prints "mapping_kib NAME KIB" for each mapping name of /proc/self/smaps (as the Swift players'
 * ResidentMemory does): a file's mappings under its file name, spaces made "_". */
static void peer_print_mappings(void) {
    enum { capacity = 256 };
    static char names[capacity][128];
    static long kib[capacity];
    int count = 0, current = -1;
    char line[1024];
    FILE *smaps = fopen("/proc/self/smaps", "r");
    if (!smaps) return;
    while (fgets(line, sizeof(line), smaps)) {
        unsigned long start, end;
        char perms[8], path[1024] = "";
        long value;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %1023[^\n]", &start, &end, perms, path) >= 3) {
            const char *name = path[0] ? path : "[anonymous]";
            const char *slash = strrchr(name, '/');
            if (slash && name[0] == '/') name = slash + 1;
            char clean[128];
            snprintf(clean, sizeof(clean), "%s", name);
            for (char *c = clean; *c; c++) if (*c == ' ') *c = '_';
            current = -1;
            for (int index = 0; index < count; index++) if (strcmp(names[index], clean) == 0) current = index;
            if (current < 0 && count < capacity) {
                current = count++;
                snprintf(names[current], sizeof(names[current]), "%s", clean);
                kib[current] = 0;
            }
        } else if (current >= 0 && sscanf(line, "Rss: %ld kB", &value) == 1) {
            kib[current] += value;
        }
    }
    fclose(smaps);
    for (int index = 0; index < count; index++) if (kib[index] > 0) printf("mapping_kib %s %ld\n", names[index], kib[index]);
}

/* Prints the results and writes the samples; call while the scene still plays. */
static int peer_scene_report(peer_scene *scene, double played_seconds, int sample_rate) {
    double cpu = peer_cpu_seconds() - scene->cpu_start_seconds;
    FILE *out = fopen(scene->samples_path, "wb");
    if (!out) {
        fprintf(stderr, "cannot write %s\n", scene->samples_path);
        return -1;
    }
    size_t written = fwrite(scene->samples, sizeof(int64_t), (size_t)scene->sample_count, out);
    fclose(out);
    if (written != (size_t)scene->sample_count) return -1;
    printf("cpu_seconds %.6f\n", cpu);
    printf("game_thread_cpu_seconds %.6f\n", scene->game_thread_cpu_seconds);
    printf("audio_seconds %.6f\n", played_seconds);
    printf("peak_rss_kib %ld\n", peer_status_kib("VmHWM:"));
    printf("start_rss_kib %ld\n", scene->start_rss_kib);
    printf("position_calls %ld\n", scene->sample_count);
    printf("sample_rate %d\n", sample_rate);
    printf("threads %d\n", peer_thread_count());
    peer_print_mappings();
    return 0;
}

#endif
