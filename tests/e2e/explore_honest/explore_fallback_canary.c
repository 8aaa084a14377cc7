/* explore_fallback's canary: scheduling points of explore, never run */
int canary(int x)
{
	return x + 1;
}
