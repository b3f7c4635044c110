// The hnswlib side of the side-by-side benchmark (run.sh builds it against the headers of
// npm's hnswlib-node with -O3 -march=native; nothing of hnswlib is kept in this repository).
// It speaks the same line protocol as the Go engine (main.go, "engine"):
//
//   argv: data file (see main.go writeData), M, efConstruction
//   stdout after the build: build {"cpu_s":..,"peak_rss_kb":..,"rss_growth_kb":..}
//   stdin "search EF": one pass over every query at that ef; stdout:
//     search {"ef":..,"cpu_s":..,"ids":"path"} with the top 10 ids per query written to path
//   stdin "quit": exit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include <iostream>
#include "hnswlib/hnswlib.h"

static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, key, n) == 0) { v = atol(line + n); break; }
  }
  fclose(f);
  return v;
}

static double thread_cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: %s DATA M EFC\n", argv[0]); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  int32_t hdr[3];  // n, queries, dims
  if (fread(hdr, 4, 3, f) != 3) { fprintf(stderr, "short header\n"); return 1; }
  int n = hdr[0], nq = hdr[1], dims = hdr[2];
  std::vector<float> data((size_t)n * dims), queries((size_t)nq * dims);
  if (fread(data.data(), 4, data.size(), f) != data.size() ||
      fread(queries.data(), 4, queries.size(), f) != queries.size()) {
    fprintf(stderr, "short data\n");
    return 1;
  }
  fclose(f);
  int M = atoi(argv[2]), efc = atoi(argv[3]);

  long before = status_kb("VmRSS:");
  double c0 = thread_cpu();
  hnswlib::InnerProductSpace space(dims);
  auto *ix = new hnswlib::HierarchicalNSW<float>(&space, n, M, efc, 100);
  for (int i = 0; i < n; i++) ix->addPoint(&data[(size_t)i * dims], i);
  double c1 = thread_cpu();
  long after = status_kb("VmRSS:");
  printf("build {\"cpu_s\":%.3f,\"peak_rss_kb\":%ld,\"rss_growth_kb\":%ld}\n", c1 - c0,
         status_kb("VmHWM:"), after - before);
  fflush(stdout);

  std::string cmd;
  while (std::cin >> cmd) {
    if (cmd == "quit") break;
    int ef;
    std::string out;
    std::cin >> ef >> out;
    ix->setEf(ef);
    std::vector<int32_t> ids((size_t)nq * 10, -1);
    double s0 = thread_cpu();
    for (int q = 0; q < nq; q++) {
      auto top = ix->searchKnn(&queries[(size_t)q * dims], 10);
      int r = (int)top.size() - 1;
      while (!top.empty()) {
        ids[(size_t)q * 10 + r--] = (int32_t)top.top().second;
        top.pop();
      }
    }
    double s1 = thread_cpu();
    FILE *o = fopen(out.c_str(), "wb");
    fwrite(ids.data(), 4, ids.size(), o);
    fclose(o);
    printf("search {\"ef\":%d,\"cpu_s\":%.6f}\n", ef, s1 - s0);
    fflush(stdout);
  }
  delete ix;
  return 0;
}
