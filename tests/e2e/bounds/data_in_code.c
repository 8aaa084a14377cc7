/* Data in the middle of a function's code, jumped over (hand-written
 * assembly and some compilers do this): decoding byte after byte from the
 * function's start runs through the data and misreads the instructions
 * after it.  The gates on the lines after the data must still be taken as
 * instruction boundaries, since they are where execution really goes. */
#include <stdio.h>

volatile int x;

int main(void)
{
	x = 1;
	/* five bytes that start a 10-byte movabs, then the real code */
	__asm__ volatile("jmp 1f\n\t.byte 0x48, 0xb8, 1, 2, 3\n1:");
	x = x + 1;                               /* @after-data */
	printf("x = %d\n", x);                   /* @print */
	return x == 2 ? 0 : 1;
}
