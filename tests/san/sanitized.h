/* SANITIZED: defined in a build with AddressSanitizer (gcc's __SANITIZE_ADDRESS__, clang's
 * __has_feature), for the tests that check what only such a build links in. */
#ifndef TESTS_SAN_SANITIZED_H
#define TESTS_SAN_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

#endif
