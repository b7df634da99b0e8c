/* Hexadecimal digits, for the parsers of tokens, GIDs, secrets and JSON escapes. Part of
 * the base every layer may use. */
#ifndef HCCLCTL_BASE_HEX_H
#define HCCLCTL_BASE_HEX_H

/* The value of c as a hexadecimal digit (either case), or -1 when it is none. c may be any
 * char or unsigned char value, EOF included. */
int hex_val(int c);

#endif
