// Non-owning views of byte strings, used for names and text everywhere so
// that parsing never copies and never relies on NUL terminators.
#ifndef KILN_RUNTIME_BASE_STRING_VIEW_H_
#define KILN_RUNTIME_BASE_STRING_VIEW_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_string_view_t {
  const char* data;
  size_t size;
} kiln_string_view_t;

// printf helper: printf("%.*s", KILN_SV_ARG(sv)).
#define KILN_SV_ARG(sv) (int)(sv).size, (sv).data

static inline kiln_string_view_t kiln_make_string_view(const char* data,
                                                       size_t size) {
  kiln_string_view_t sv = {data, size};
  return sv;
}
// View of a NUL-terminated string (NULL gives the empty view).
kiln_string_view_t kiln_make_cstring_view(const char* cstr);
static inline kiln_string_view_t kiln_string_view_empty(void) {
  kiln_string_view_t sv = {"", 0};
  return sv;
}

bool kiln_string_view_equal(kiln_string_view_t a, kiln_string_view_t b);
bool kiln_string_view_equal_cstr(kiln_string_view_t a, const char* b);
int kiln_string_view_compare(kiln_string_view_t a, kiln_string_view_t b);
bool kiln_string_view_starts_with(kiln_string_view_t sv,
                                  kiln_string_view_t prefix);
bool kiln_string_view_ends_with(kiln_string_view_t sv,
                                kiln_string_view_t suffix);
// Index of the first |c| at or after |pos|, or SIZE_MAX.
size_t kiln_string_view_find_char(kiln_string_view_t sv, char c, size_t pos);
// Substring [pos, pos+n) clamped to the view.
kiln_string_view_t kiln_string_view_substr(kiln_string_view_t sv, size_t pos,
                                           size_t n);
// Removes leading and trailing ASCII whitespace.
kiln_string_view_t kiln_string_view_trim(kiln_string_view_t sv);
// Splits at the first |c|: |*lhs| before it, |*rhs| after it. Returns the
// index of |c| or SIZE_MAX (then lhs = sv and rhs is empty).
size_t kiln_string_view_split(kiln_string_view_t sv, char c,
                              kiln_string_view_t* lhs, kiln_string_view_t* rhs);
// Strict number parsing of the whole view (no trailing garbage).
bool kiln_string_view_atoi_int64(kiln_string_view_t sv, int64_t* out);
bool kiln_string_view_atoi_uint64(kiln_string_view_t sv, uint64_t* out);
bool kiln_string_view_atof(kiln_string_view_t sv, double* out);
// The one parser of a tensor dimension written in decimal ("4" in 4x?xf32),
// shared by the MLIR parser and the tools' --input types: reads the digits at
// the start of |sv| into |*out_dim| (0 .. INT64_MAX) and returns how many
// characters it read, 0 when |sv| does not start with a digit. A value past
// INT64_MAX sets |*out_overflow| (and |*out_dim| to INT64_MAX) instead of
// wrapping.
size_t kiln_string_view_parse_dimension(kiln_string_view_t sv, int64_t* out_dim,
                                        bool* out_overflow);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_STRING_VIEW_H_
