/* explore_fallback_canary.c's canary as compiled, in a file no point is in */
int canary_twin(int x)
{
	return x + 1;
}
