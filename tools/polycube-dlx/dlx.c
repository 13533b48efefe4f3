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
 * Input: "COLUMNS ROWS", then each row as "K c1 .. cK" (0-based columns). */
#include <stdio.h>
#include <stdlib.h>

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
int main(void) {
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
    search();
    printf("{\"exhaust_nodes\": %lld, \"packings\": %lld}\n", nodes, packings);
    return 0;
}
