/* plugin: a module the host opens with dlopen; a lost update inside it. */
static int count;

void plugin_add(void)
{
    int c = count;                      /* read */
    count = c + 1;                      /* write: gated line */
}

int plugin_count(void)
{
    return count;
}
