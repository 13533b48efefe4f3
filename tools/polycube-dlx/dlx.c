/* The same plain solver as dlx.py, in C with dancing links, for the
 * designs whose full search Python cannot finish in the time there is
 * (docs/perf/polycube-generate.md, "The difficulty"). Algorithm X: the
 * column with the fewest rows first, ties the lowest column; no symmetry
 * breaking, no pruning. It counts the nodes to exhaust the search (every
 * call of search, the root included) and the packings: the figures of
 * dlx.py's `exhaust_nodes` and `packings`, equal on every design both
 * have run (the tree does not depend on the order of rows).
 *
 *     cc -O2 -o dlx dlx.c
 *     python3 dlx.py --rows LEVEL.ron | ./dlx
 *
 *     python3 dlx.py --rows LEVEL.ron | ./dlx --estimate 20000
 *
 * With --estimate N it searches nothing: Knuth's estimate of the packings
 * and of the tree from N random descents (the same column rule, a row of
 * that column at random, xorshift from a fixed seed), as tried for the
 * generator's walk (docs/perf/polycube-generate.md).
 *
 * Input: "COLUMNS ROWS", then each row as "K c1 .. cK" (0-based columns). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int *L, *R, *U, *D, *C, *S;
static long long nodes, packings;
static int ncols;

static void cover(int c) {
    R[L[c]] = R[c]; L[R[c]] = L[c];
    for (int i = D[c]; i != c; i = D[i])
        for (int j = R[i]; j != i; j = R[j]) { U[D[j]] = U[j]; D[U[j]] = D[j]; S[C[j]]--; }
}
static void uncover(int c) {
    for (int i = U[c]; i != c; i = U[i])
        for (int j = L[i]; j != i; j = L[j]) { S[C[j]]++; U[D[j]] = j; D[U[j]] = j; }
    R[L[c]] = c; L[R[c]] = c;
}
static void search(void) {
    nodes++;
    if (R[0] == 0) { packings++; return; }
    int c = R[0];
    for (int j = R[c]; j != 0; j = R[j]) if (S[j] < S[c]) c = j;
    cover(c);
    for (int r = D[c]; r != c; r = D[r]) {
        for (int j = R[r]; j != r; j = R[j]) cover(C[j]);
        search();
        for (int j = L[r]; j != r; j = L[j]) uncover(C[j]);
    }
    uncover(c);
}
/* One random descent: the product of the branchings on its path if it
 * reaches a packing (else 0); adds the partial products to *tree. */
static unsigned long long rng = 88172645463325252ULL;
static unsigned long long xorshift(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double descent(double *tree) {
    int cols[1024], rows[1024], depth = 0;
    double weight = 1.0, found = 0.0;
    *tree += 1.0;
    for (;;) {
        if (R[0] == 0) { found = weight; break; }
        int c = R[0];
        for (int j = R[c]; j != 0; j = R[j]) if (S[j] < S[c]) c = j;
        if (S[c] == 0 || depth == 1024) break;
        int k = (int)(xorshift() % (unsigned long long)S[c]);
        weight *= S[c];
        *tree += weight;
        cover(c);
        int r = D[c];
        while (k--) r = D[r];
        for (int j = R[r]; j != r; j = R[j]) cover(C[j]);
        cols[depth] = c; rows[depth] = r; depth++;
    }
    while (depth > 0) {
        depth--;
        int c = cols[depth], r = rows[depth];
        for (int j = L[r]; j != r; j = L[j]) uncover(C[j]);
        uncover(c);
    }
    return found;
}
int main(int argc, char **argv) {
    long descents = 0;
    if (argc == 3 && strcmp(argv[1], "--estimate") == 0) descents = atol(argv[2]);
    else if (argc != 1) { fprintf(stderr, "usage: dlx [--estimate N] < rows\n"); return 2; }
    int rows;
    if (scanf("%d %d", &ncols, &rows) != 2) return 2;
    int cap = ncols + 1 + rows * 16;
    L = malloc(cap * sizeof(int)); R = malloc(cap * sizeof(int)); U = malloc(cap * sizeof(int));
    D = malloc(cap * sizeof(int)); C = malloc(cap * sizeof(int)); S = calloc(ncols + 1, sizeof(int));
    /* headers 1..ncols, root 0, in column order */
    for (int c = 0; c <= ncols; c++) { L[c] = c - 1; R[c] = c + 1; U[c] = D[c] = c; C[c] = c; }
    L[0] = ncols; R[ncols] = 0;
    int next = ncols + 1;
    for (int r = 0; r < rows; r++) {
        int k; if (scanf("%d", &k) != 1) return 2;
        int first = -1;
        for (int t = 0; t < k; t++) {
            int col; if (scanf("%d", &col) != 1) return 2;
            col += 1; int n = next++;
            C[n] = col; S[col]++;
            U[n] = U[col]; D[n] = col; D[U[col]] = n; U[col] = n;
            if (first < 0) { first = n; L[n] = R[n] = n; }
            else { L[n] = L[first]; R[n] = first; R[L[first]] = n; L[first] = n; }
        }
    }
    if (descents > 0) {
        double sum = 0, tree = 0;
        long reached = 0;
        for (long i = 0; i < descents; i++) { double e = descent(&tree); sum += e; reached += e > 0; }
        printf("{\"descents\": %ld, \"reached\": %ld, \"packings_estimate\": %.4g, \"tree_estimate\": %.4g}\n",
               descents, reached, sum / descents, tree / descents);
        return 0;
    }
    search();
    printf("{\"exhaust_nodes\": %lld, \"packings\": %lld}\n", nodes, packings);
    return 0;
}
