// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The choice of exposition format from an HTTP Accept header. */
#include "exporter/negotiate.h"
#include "test.h"

TEST(prom_accept_negotiation)
{
	/* what Prometheus 2.x sends */
	CHECK(prom_wants_openmetrics("application/openmetrics-text;version=1.0.0,"
				     "application/openmetrics-text;version=0.0.1;q=0.75,"
				     "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
	CHECK(prom_wants_openmetrics("application/openmetrics-text"));
	CHECK(prom_wants_openmetrics("Application/OpenMetrics-Text ; Version=1.0.0 ; q=1"));
	CHECK(prom_wants_openmetrics("text/plain;q=0.5, application/openmetrics-text;q=0.6"));
	CHECK(!prom_wants_openmetrics(NULL));
	CHECK(!prom_wants_openmetrics(""));
	CHECK(!prom_wants_openmetrics("*/*"));
	CHECK(!prom_wants_openmetrics("text/plain;version=0.0.4"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=0.5,text/plain"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=0"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;version=2.0.0"));
	/* malformed ranges are ignored, not guessed */
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=abc"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=1.5"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;junk"));
	CHECK(!prom_wants_openmetrics(",,,;;;===,"));
	CHECK(prom_wants_openmetrics(" , application/openmetrics-text , "));
}

TEST(prom_accept_encoding_gzip)
{
	/* what Prometheus and curl --compressed send */
	CHECK(prom_accepts_gzip("gzip"));
	CHECK(prom_accepts_gzip("deflate, gzip"));
	CHECK(prom_accepts_gzip("br;q=1.0, GZIP;q=0.5, identity"));
	CHECK(prom_accepts_gzip("x-gzip"));
	CHECK(prom_accepts_gzip("*"));
	CHECK(!prom_accepts_gzip(NULL));
	CHECK(!prom_accepts_gzip(""));
	CHECK(!prom_accepts_gzip("identity"));
	CHECK(!prom_accepts_gzip("deflate, br"));
	CHECK(!prom_accepts_gzip("gzip;q=0"));
	CHECK(!prom_accepts_gzip("gzip;q=0, *"));
	CHECK(!prom_accepts_gzip("*;q=0"));
	CHECK(!prom_accepts_gzip("gzip;q=x"));
}
