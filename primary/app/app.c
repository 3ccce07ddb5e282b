/* SPDX-License-Identifier: BSD-3-Clause
 * Which application a worker's connections carry (app.h).
 */
#include "app/app.h"

void
app_bind(struct tcp_app *a, const struct dp_config *cfg, int is_client, int is_http)
{
	if (is_http)
		*a = is_client ? http_client_app : http_server_app;
	else
		*a = is_client ? raw_client_app : raw_server_app;
	if (is_http && cfg->http_method == DP_HTTP_POST)
		a->asked = DP_C_HTTP_POST;
}
