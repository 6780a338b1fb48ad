/*
 * csvsplit: where one CSV record's fields end, found 64 bytes at a time.
 *
 * Each 64-byte block becomes bit masks, one bit a byte: quotes, commas,
 * line feeds, carriage returns, NUL bytes, bytes >= 0x80. The inside of
 * quoted fields is the prefix XOR of the quote mask (a carry-less multiply
 * by all ones with AVX2's kernel, a ladder of shifts with SSE2's), carried
 * from block to block; commas and line ends outside it end fields, and the
 * first line end outside it ends the record. The kernels differ only in
 * how they make the masks, so they give the same answer.
 *
 * The splitter takes a record only when the byte-by-byte reader of csv.c
 * would read it the plain way: every quote opens a field (after a comma or
 * at the record's start), closes one (before a comma or a line end), or is
 * one of a doubled pair inside; no NUL byte; the line end within the bytes
 * given. Anything else is left to that reader (csvsplit_record returns 0).
 *
 * Ownership: a csvsplit owns its arrays; they are valid until the next
 * csvsplit_record() or csvsplit_release().
 */
#ifndef MODELCAT_CSVSPLIT_H
#define MODELCAT_CSVSPLIT_H

#include <stddef.h>

/* How the block masks are made. */
typedef enum csvsplit_kernel {
	CSVSPLIT_SSE2,   /* four 16-byte compares a mask, shift-ladder prefix XOR */
	CSVSPLIT_AVX2    /* two 32-byte compares a mask, carry-less multiply */
} csvsplit_kernel;

typedef struct csvsplit {
	csvsplit_kernel kernel;   /* set by csvsplit_init() */
	size_t *ends;             /* each field's end (its comma or the line
				     end), as an offset from the record's start */
	unsigned char *high;      /* 1 when the field holds a byte >= 0x80 */
	size_t cap;               /* room in ends and high */
	size_t nfields;           /* fields of the last record split */
	size_t end;               /* offset of the line end (LF or CR) that
				     ends it */
	unsigned long lines;      /* line ends inside its quoted fields (a CR
				     LF pair counts once) */
} csvsplit;

/* Does this CPU (and build) have the kernel? */
int csvsplit_has(csvsplit_kernel kernel);

void csvsplit_init(csvsplit *s, csvsplit_kernel kernel);
void csvsplit_release(csvsplit *s);

/*
 * Split the record that starts at data (outside quotes: the start of the
 * input or after a line end), looking at most at len bytes. Returns 1 with
 * the fields in s, or 0 when the record is not one the splitter takes (see
 * above), its line end is not within len bytes, or it holds more than
 * CSVSPLIT_MAX bytes.
 */
int csvsplit_record(csvsplit *s, const unsigned char *data, size_t len);

/* Records longer than this are left to the byte reader. */
#define CSVSPLIT_MAX ((size_t)256 * 1024)

#endif
