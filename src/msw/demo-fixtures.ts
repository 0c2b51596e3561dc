// Written by scripts/demo-fixtures.js from fixtures/: do not edit.
/* eslint-disable */

/** The bundled fixture files, by name and content, in the order the server reads them. */
export const DEMO_FIXTURES: ReadonlyArray<{ file: string, data: unknown }> = [
  {
    "file": "headquarters.json",
    "data": {
      "cameras": [
        {
          "id": "cam-entrance-main"
        },
        {
          "id": "cam-lobby"
        },
        {
          "id": "cam-parking-north"
        }
      ],
      "counting_lines": [
        {
          "id": "line-entrance-door",
          "camera_id": "cam-entrance-main",
          "name": "Main door",
          "counting_line": "0.180,0.720;0.820,0.720",
          "anchor": "bottom_center",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-03-04T08:15:22.104Z",
          "updated": "2024-06-11T14:02:09.551Z"
        },
        {
          "id": "line-entrance-sidewalk",
          "camera_id": "cam-entrance-main",
          "name": "Sidewalk passing",
          "counting_line": "0.050,0.910;0.950,0.880",
          "anchor": "bottom_center",
          "coalesce_entries": false,
          "class": "person",
          "max_age": 45,
          "created": "2024-03-04T08:17:40.317Z",
          "updated": "2024-03-04T08:17:40.317Z"
        },
        {
          "id": "line-entrance-bike-rack",
          "camera_id": "cam-entrance-main",
          "name": "Bike rack approach",
          "counting_line": "0.610,0.400;0.610,0.950",
          "anchor": "center",
          "coalesce_entries": true,
          "class": "bicycle",
          "max_age": 60,
          "created": "2024-04-18T10:41:03.900Z",
          "updated": "2024-05-02T07:55:48.026Z"
        },
        {
          "id": "line-lobby-turnstiles",
          "camera_id": "cam-lobby",
          "name": "Turnstiles",
          "counting_line": "0.250,0.550;0.750,0.550",
          "anchor": "bottom_center",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 20,
          "created": "2024-03-05T09:00:00.000Z",
          "updated": "2024-09-30T16:20:12.733Z"
        },
        {
          "id": "line-lobby-stairs",
          "camera_id": "cam-lobby",
          "name": "Stairs to first floor",
          "counting_line": "0.820,0.300;0.980,0.640",
          "anchor": "top_center",
          "coalesce_entries": false,
          "class": "person",
          "max_age": 25,
          "created": "2024-03-05T09:03:31.482Z",
          "updated": "2024-03-05T09:03:31.482Z"
        },
        {
          "id": "line-parking-north-entry",
          "camera_id": "cam-parking-north",
          "name": "Barrier entry lane",
          "counting_line": "0.100,0.600;0.480,0.600",
          "anchor": "center",
          "coalesce_entries": true,
          "class": "car",
          "max_age": 90,
          "created": "2024-02-19T06:30:55.210Z",
          "updated": "2024-07-22T11:48:37.064Z"
        },
        {
          "id": "line-parking-north-exit",
          "camera_id": "cam-parking-north",
          "name": "Barrier exit lane",
          "counting_line": "0.520,0.600;0.900,0.600",
          "anchor": "center",
          "coalesce_entries": true,
          "class": "car",
          "max_age": 90,
          "created": "2024-02-19T06:31:12.876Z",
          "updated": "2024-07-22T11:49:02.390Z"
        },
        {
          "id": "line-parking-north-deliveries",
          "camera_id": "cam-parking-north",
          "name": "Delivery bay",
          "counting_line": "0.050,0.350;0.300,0.200",
          "anchor": "bottom_center",
          "coalesce_entries": false,
          "class": "truck",
          "max_age": 120,
          "created": "2024-05-27T13:12:44.618Z",
          "updated": "2024-05-27T13:12:44.618Z"
        }
      ]
    }
  },
  {
    "file": "warehouse.json",
    "data": {
      "cameras": [
        {
          "id": "cam-loading-dock"
        },
        {
          "id": "cam-yard-gate"
        },
        {
          "id": "cam-server-room"
        }
      ],
      "counting_lines": [
        {
          "id": "line-dock-bay-1",
          "camera_id": "cam-loading-dock",
          "name": "Dock bay 1",
          "counting_line": "0.080,0.700;0.320,0.700",
          "anchor": "bottom_center",
          "coalesce_entries": true,
          "class": "truck",
          "max_age": 180,
          "created": "2023-11-07T05:44:10.005Z",
          "updated": "2024-08-14T09:30:27.771Z"
        },
        {
          "id": "line-dock-bay-2",
          "camera_id": "cam-loading-dock",
          "name": "Dock bay 2",
          "counting_line": "0.380,0.700;0.620,0.700",
          "anchor": "bottom_center",
          "coalesce_entries": true,
          "class": "truck",
          "max_age": 180,
          "created": "2023-11-07T05:45:36.142Z",
          "updated": "2024-08-14T09:31:05.208Z"
        },
        {
          "id": "line-dock-walkway",
          "camera_id": "cam-loading-dock",
          "name": "Pedestrian walkway",
          "counting_line": "0.700,0.200;0.700,0.980",
          "anchor": "bottom_center",
          "coalesce_entries": false,
          "class": "person",
          "max_age": 30,
          "created": "2023-11-07T05:49:58.663Z",
          "updated": "2024-01-15T12:06:19.397Z"
        },
        {
          "id": "line-dock-forklift-aisle",
          "camera_id": "cam-loading-dock",
          "name": "Forklift aisle",
          "counting_line": "0.150,0.450;0.850,0.450",
          "anchor": "center",
          "coalesce_entries": false,
          "class": "car",
          "max_age": 60,
          "created": "2024-10-02T15:27:08.950Z",
          "updated": "2024-10-02T15:27:08.950Z"
        },
        {
          "id": "line-yard-gate-inbound",
          "camera_id": "cam-yard-gate",
          "name": "Gate inbound",
          "counting_line": "0.200,0.650;0.500,0.650",
          "anchor": "center",
          "coalesce_entries": true,
          "class": "truck",
          "max_age": 150,
          "created": "2023-12-01T07:00:00.000Z",
          "updated": "2024-04-09T18:44:51.129Z"
        },
        {
          "id": "line-yard-gate-outbound",
          "camera_id": "cam-yard-gate",
          "name": "Gate outbound",
          "counting_line": "0.500,0.650;0.800,0.650",
          "anchor": "center",
          "coalesce_entries": true,
          "class": "truck",
          "max_age": 150,
          "created": "2023-12-01T07:01:22.481Z",
          "updated": "2024-04-09T18:45:13.867Z"
        },
        {
          "id": "line-yard-gate-cars",
          "camera_id": "cam-yard-gate",
          "name": "Staff cars",
          "counting_line": "0.050,0.800;0.300,0.900",
          "anchor": "center",
          "coalesce_entries": true,
          "class": "car",
          "max_age": 90,
          "created": "2024-01-22T08:12:39.034Z",
          "updated": "2024-01-22T08:12:39.034Z"
        },
        {
          "id": "line-yard-gate-cyclists",
          "camera_id": "cam-yard-gate",
          "name": "Cycle lane",
          "counting_line": "0.850,0.500;0.980,0.900",
          "anchor": "center",
          "coalesce_entries": false,
          "class": "bicycle",
          "max_age": 45,
          "created": "2024-06-03T06:58:17.726Z",
          "updated": "2024-06-19T10:03:44.285Z"
        }
      ]
    }
  }
]
