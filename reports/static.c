/* static.c: `dse report --static`: each chart of a report as SVG and PNG
 * for papers, from the page's own Vega specs.  A headless Chromium loads
 * the report's index.html in its static mode (#static), where the page
 * renders every chart with view.toSVG() and view.toImageURL("png") and
 * writes them, base64-encoded, into the document; this reads the document
 * Chromium dumps and writes charts/NAME.svg and charts/NAME.png
 * (docs/report.md, "Charts for papers"). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reports/page.h"
#include "reports/report.h"

/* The browser: $DSE_CHROMIUM, else the first of Debian's and others' names
 * on PATH.  0 with its path in out, or -1. */
int rpt_find_chromium(char *out, size_t n) {
  const char *env = getenv("DSE_CHROMIUM");
  if (env && *env) {
    snprintf(out, n, "%s", env);
    return access(env, X_OK) == 0 ? 0 : -1;
  }
  static const char *const names[] = {"chromium", "chromium-browser", "google-chrome",
                                      "google-chrome-stable", NULL};
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  for (int k = 0; names[k]; k++) {
    for (const char *s = path; *s;) {
      const char *e = strchr(s, ':');
      const size_t dl = e ? (size_t)(e - s) : strlen(s);
      if (dl && (size_t)snprintf(out, n, "%.*s/%s", (int)dl, s, names[k]) < n && access(out, X_OK) == 0)
        return 0;
      s += dl + (e ? 1 : 0);
      if (!e) break;
    }
  }
  return -1;
}

/* Run argv, its stdout into *out (its stderr into err, the last of it),
 * killed after limit_s seconds.  Returns its exit status, or -1 (errno). */
static int run_capture(const char *const argv[], core_buf *out, char *err, size_t errn, int limit_s) {
  int po[2], pe[2];
  if (pipe(po) != 0) return -1;
  if (pipe(pe) != 0) {
    close(po[0]);
    close(po[1]);
    return -1;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(po[0]);
    close(po[1]);
    close(pe[0]);
    close(pe[1]);
    return -1;
  }
  if (pid == 0) {
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]);
    close(po[1]);
    close(pe[0]);
    close(pe[1]);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    setpgid(0, 0); /* (its helpers killed with it) */
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  size_t elen = 0;
  err[0] = '\0';
  const time_t until = time(NULL) + limit_s;
  int open_fds = 2, timed_out = 0;
  char chunk[65536];
  while (open_fds > 0) {
    const long left = (long)(until - time(NULL));
    if (left <= 0) {
      timed_out = 1;
      break;
    }
    const int r = poll(fds, 2, (int)(left * 1000));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      timed_out = r == 0;
      break;
    }
    for (int k = 0; k < 2; k++) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[k].fd, chunk, sizeof chunk);
      if (got <= 0) {
        close(fds[k].fd);
        fds[k].fd = -1;
        open_fds--;
      } else if (k == 0) {
        core_buf_append(out, chunk, (size_t)got);
      } else { /* the last errn - 1 bytes of stderr */
        for (ssize_t i = 0; i < got; i++) {
          if (elen + 1 >= errn) {
            memmove(err, err + errn / 2, elen - errn / 2);
            elen -= errn / 2;
          }
          err[elen++] = chunk[i];
        }
        err[elen] = '\0';
      }
    }
  }
  if (timed_out) kill(-pid, SIGKILL), kill(pid, SIGKILL);
  for (int k = 0; k < 2; k++)
    if (fds[k].fd >= 0) close(fds[k].fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  kill(-pid, SIGKILL); /* (whatever it left behind) */
  if (timed_out) {
    errno = ETIMEDOUT;
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int rpt_chromium_dump(dse_ctx *ctx, const char *html, const char *fragment, const char *shown,
                      core_buf *dom) {
  char chromium[PATH_MAX], abs[PATH_MAX], profile[] = "/tmp/dse-chromium-XXXXXX";
  if (rpt_find_chromium(chromium, sizeof chromium)) {
    core_diag(ctx, shown, 0, 0, "needs a headless Chromium, and none was found (apt-get install "
                                "chromium, or name one in DSE_CHROMIUM)");
    return DSE_ERR_INVALID;
  }
  if (!realpath(html, abs)) {
    core_diag(ctx, shown, 0, 0, "cannot find '%s' (%s)", html, strerror(errno));
    return DSE_ERR_IO;
  }
  if (!mkdtemp(profile)) {
    core_diag(ctx, shown, 0, 0, "cannot make a browser profile in /tmp (%s)", strerror(errno));
    return DSE_ERR_IO;
  }
  const size_t ul = strlen(abs) + strlen(fragment) + 16;
  char *url = malloc(ul), udd[PATH_MAX + 32];
  if (!url) return DSE_ERR_NOMEM;
  snprintf(url, ul, "file://%s#%s", abs, fragment);
  snprintf(udd, sizeof udd, "--user-data-dir=%s", profile);
  /* the flags of docs/report.md: no sandbox as root, no network at all */
  const char *const argv[] = {chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
                  "--window-size=1280,2000", "--virtual-time-budget=60000", udd, "--dump-dom",
                  url, NULL};
  char err[2048];
  const int st = run_capture(argv, dom, err, sizeof err, 180);
  const int e = errno;
  /* the profile, removed (its files are Chromium's) */
  const char *const rm[] = {"/bin/rm", "-rf", profile, NULL};
  core_buf ignore;
  char ie[64];
  core_buf_init(&ignore);
  run_capture(rm, &ignore, ie, sizeof ie, 30);
  core_buf_fini(&ignore);
  free(url);
  if (st != 0 || dom->oom) {
    if (st < 0)
      core_diag(ctx, shown, 0, 0, "%s: %s", chromium, e == ETIMEDOUT ? "no answer in 180 s" : strerror(e));
    else
      core_diag(ctx, shown, 0, 0, "%s exited with status %d: %s", chromium, st,
                *err ? err : "(it printed nothing)");
    return DSE_ERR_IO;
  }
  return 0;
}

/* Standard base64 (RFC 4648) into out; 0, or -1 on a byte outside it. */
static int unbase64(const char *s, size_t n, core_buf *out) {
  unsigned v = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    const char c = s[i];
    int d;
    if (c >= 'A' && c <= 'Z') d = c - 'A';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
    else if (c >= '0' && c <= '9') d = c - '0' + 52;
    else if (c == '+') d = 62;
    else if (c == '/') d = 63;
    else if (c == '=') break;
    else return -1;
    v = (v << 6) | (unsigned)d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      const char byte = (char)((v >> bits) & 0xff);
      core_buf_append(out, &byte, 1);
    }
  }
  return 0;
}

int rpt_static_charts(dse_ctx *ctx, const char *dir, const char *shown) {
  const size_t dl = strlen(dir) + 64;
  char *html = malloc(dl), *charts = malloc(dl);
  if (!html || !charts) {
    free(html);
    free(charts);
    return DSE_ERR_NOMEM;
  }
  snprintf(html, dl, "%s/index.html", dir);
  snprintf(charts, dl, "%s/charts", dir);
  core_buf dom, file;
  core_buf_init(&dom);
  core_buf_init(&file);
  int rc = rpt_chromium_dump(ctx, html, "static", shown, &dom);
  /* the page's answer: <pre id="dse-static"> lines "NAME SVG64 PNG64", then
   * a line "end N" (N charts), or "error MESSAGE" */
  const char *s = rc ? NULL : strstr(core_buf_str(&dom), "<pre id=\"dse-static\" class=\"selftest\">");
  if (!rc && !s) {
    core_diag(ctx, shown, 0, 0, "the page gave no charts (its static mode did not finish)");
    rc = DSE_ERR_IO;
  }
  size_t made = 0, said = 0;
  int ended = 0;
  const char *end = NULL;
  if (!rc) {
    s = strchr(s, '>') + 1;
    end = strstr(s, "</pre>");
    if (!end) {
      core_diag(ctx, shown, 0, 0, "the page's static answer never ends");
      rc = DSE_ERR_IO;
    } else if (mkdir(charts, 0755) != 0) {
      core_diag(ctx, shown, 0, 0, "cannot create charts/ (%s)", strerror(errno));
      rc = DSE_ERR_IO;
    }
  }
  while (!rc && s < end) {
    const char *eol = memchr(s, '\n', (size_t)(end - s));
    if (!eol) eol = end;
    const size_t ll = (size_t)(eol - s);
    if (ll > 4 && !strncmp(s, "end ", 4)) {
      said = strtoul(s + 4, NULL, 10);
      ended = 1;
    } else if (ll > 6 && !strncmp(s, "error ", 6)) {
      core_diag(ctx, shown, 0, 0, "the page's static mode failed: %.*s", (int)(ll - 6), s + 6);
      rc = DSE_ERR_IO;
    } else if (ll) {
      const char *sp1 = memchr(s, ' ', ll), *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
      const size_t nl = sp1 ? (size_t)(sp1 - s) : 0;
      int good = sp1 && sp2 && nl && nl < 100;
      for (size_t i = 0; good && i < nl; i++)
        good = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-';
      if (!good) {
        core_diag(ctx, shown, 0, 0, "the page's static mode wrote a line this dse does not read: '%.60s'",
                  s);
        rc = DSE_ERR_IO;
        break;
      }
      for (int k = 0; !rc && k < 2; k++) {
        const char *a = k ? sp2 + 1 : sp1 + 1, *b = k ? eol : sp2;
        file.len = 0;
        if (unbase64(a, (size_t)(b - a), &file) || file.oom) {
          core_diag(ctx, shown, 0, 0, "chart '%.*s': its %s is not base64", (int)nl, s, k ? "PNG" : "SVG");
          rc = DSE_ERR_IO;
          break;
        }
        char path[PATH_MAX], msg[512];
        snprintf(path, sizeof path, "%s/%.*s.%s", charts, (int)nl, s, k ? "png" : "svg");
        if (rpt_write_atomic(path, file.data ? file.data : "", file.len, msg, sizeof msg)) {
          core_diag(ctx, shown, 0, 0, "%s", msg);
          rc = DSE_ERR_IO;
        }
      }
      made++;
    }
    s = eol < end ? eol + 1 : end;
  }
  if (!rc && (!ended || said != made)) {
    core_diag(ctx, shown, 0, 0, "the page wrote %zu of its charts (%s)", made,
              ended ? "it said otherwise" : "it did not finish");
    rc = DSE_ERR_IO;
  }
  core_buf_fini(&dom);
  core_buf_fini(&file);
  free(html);
  free(charts);
  return rc;
}
