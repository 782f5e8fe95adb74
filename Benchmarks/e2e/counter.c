/* The baseline of `trellis bench e2e`: the least a terminal program can do per click.
 * Raw mode, SGR mouse reporting on; each mouse press or key adds one to a number and
 * redraws it in the top-left corner. Ctrl-C ends it and restores the terminal. */
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static void put(const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(1, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static void draw(long count) {
    char line[64];
    int n = snprintf(line, sizeof line, "\x1b[1;1Hcount %ld\x1b[K", count);
    put(line, (size_t)n);
}

int main(void) {
    struct termios saved, raw;
    if (tcgetattr(0, &saved) != 0) return 1;
    raw = saved;
    cfmakeraw(&raw);
    tcsetattr(0, TCSANOW, &raw);
    static const char on[] = "\x1b[?1000h\x1b[?1006h\x1b[2J";
    put(on, sizeof on - 1);
    long count = 0;
    draw(count);
    char buf[4096];
    for (;;) {
        ssize_t r = read(0, buf, sizeof buf);
        if (r <= 0) break;
        int changed = 0, quit = 0;
        for (ssize_t i = 0; i < r; i++) {
            if (buf[i] == 3) { quit = 1; break; }
            if (buf[i] == 0x1b && i + 2 < r && buf[i + 1] == '[' && buf[i + 2] == '<') {
                ssize_t j = i + 3;
                while (j < r && buf[j] != 'M' && buf[j] != 'm') j++;
                /* A press counts; its release does not. */
                if (j < r && buf[j] == 'M') { count++; changed = 1; }
                i = j;
                continue;
            }
            count++;
            changed = 1;
        }
        if (quit) break;
        if (changed) draw(count);
    }
    static const char off[] = "\x1b[?1006l\x1b[?1000l";
    put(off, sizeof off - 1);
    tcsetattr(0, TCSANOW, &saved);
    return 0;
}
