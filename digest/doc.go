// Package digest is the utilization digest's report and chart: how the
// team's servers were booked and really used over a day or a week, from
// the reservations that overlap it and the agents' hourly samples,
// compared with the period before. Build (or a Builder fed one server at
// a time) is a pure function of that data; HeatMap draws the hour-by-hour
// chart as a PNG with the standard library.
//
// commands reads the store into an Input per server and renders the
// Report as a Reply; when a digest is due is package digest/schedule's.
package digest
