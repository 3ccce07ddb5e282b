/* SPDX-License-Identifier: BSD-3-Clause
 * Which application a worker's connections carry (app.h).
 */
#include "app/app.h"

const struct tcp_app *
app_of(int is_client, int is_http)
{
	if (is_http)
		return is_client ? &http_client_app : &http_server_app;
	return is_client ? &raw_client_app : &raw_server_app;
}
