/*
 * The racegate executable: everything else is rg_runner, which the unit
 * tests (tests/check_runner.c) link too.
 */
#include "cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
