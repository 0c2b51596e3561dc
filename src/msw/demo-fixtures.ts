// Written by scripts/demo-fixtures.js from fixtures/: do not edit.
/* eslint-disable */

/** The bundled fixture files, by name and content, in the order the server reads them. */
export const DEMO_FIXTURES: ReadonlyArray<{ file: string, data: unknown }> = [
  {
    "file": "terminal-gates.json",
    "data": {
      "cameras": [
        {
          "id": "cam-pier-b-gates"
        },
        {
          "id": "cam-gate-b12-jet-bridge"
        },
        {
          "id": "cam-gate-b16-stand"
        }
      ],
      "counting_lines": [
        {
          "id": "line-b12-boarding-door",
          "camera_id": "cam-pier-b-gates",
          "name": "Gate B12 boarding door",
          "counting_line": "LINESTRING(212 706, 618 690)",
          "anchor": "POINT(412 578)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-09-02T06:14:37.512Z",
          "updated": "2025-03-18T11:02:45.090Z"
        },
        {
          "id": "line-b14-boarding-door",
          "camera_id": "cam-pier-b-gates",
          "name": "Gate B14 boarding door",
          "counting_line": "LINESTRING(1296 688, 1702 704)",
          "anchor": "POINT(1500 580)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-09-02T06:16:03.271Z",
          "updated": "2025-03-18T11:03:12.604Z"
        },
        {
          "id": "line-b12-podium-queue",
          "camera_id": "cam-pier-b-gates",
          "name": "Gate B12 podium queue",
          "counting_line": "LINESTRING(150 420, 360 300, 520 330)",
          "anchor": "POINT(300 220)",
          "coalesce_entries": false,
          "class": "person",
          "max_age": 20,
          "created": "2024-11-20T15:41:58.008Z",
          "updated": "2024-11-20T15:41:58.008Z"
        },
        {
          "id": "line-pier-b-corridor",
          "camera_id": "cam-pier-b-gates",
          "name": "Pier B corridor to B16–B20",
          "counting_line": "LINESTRING(880 1040, 948 760, 972 480, 1010 236)",
          "anchor": "POINT(1100 620)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 15,
          "created": "2024-09-02T06:21:44.930Z",
          "updated": "2025-01-07T09:37:20.115Z"
        },
        {
          "id": "line-b12-jet-bridge-door",
          "camera_id": "cam-gate-b12-jet-bridge",
          "name": "Aircraft door",
          "counting_line": "LINESTRING(640 860, 960 812, 1280 860)",
          "anchor": "POINT(960 700)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-09-03T05:48:10.377Z",
          "updated": "2025-02-26T16:20:05.842Z"
        },
        {
          "id": "line-b12-jet-bridge-carry-ons",
          "camera_id": "cam-gate-b12-jet-bridge",
          "name": "Carry-ons boarding",
          "counting_line": "LINESTRING(700 520, 1220 520)",
          "anchor": "POINT(960 400)",
          "coalesce_entries": true,
          "class": "carry-ons",
          "max_age": 25,
          "created": "2024-10-15T13:05:29.664Z",
          "updated": "2024-10-15T13:05:29.664Z"
        }
      ]
    }
  },
  {
    "file": "terminal-retail.json",
    "data": {
      "cameras": [
        {
          "id": "cam-duty-free-entrance"
        },
        {
          "id": "cam-retail-walkway"
        }
      ],
      "counting_lines": [
        {
          "id": "line-duty-free-entrance",
          "camera_id": "cam-duty-free-entrance",
          "name": "Duty free main entrance",
          "counting_line": "LINESTRING(520 900, 700 640, 1220 640, 1400 900)",
          "anchor": "POINT(960 500)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-07-22T09:10:48.251Z",
          "updated": "2025-05-14T18:45:02.417Z"
        },
        {
          "id": "line-duty-free-roller-bags",
          "camera_id": "cam-duty-free-entrance",
          "name": "Shoppers with roller bags",
          "counting_line": "LINESTRING(760 400, 1160 400)",
          "anchor": "POINT(960 280)",
          "coalesce_entries": true,
          "class": "roller bags",
          "max_age": 20,
          "created": "2024-07-22T09:14:05.936Z",
          "updated": "2024-07-22T09:14:05.936Z"
        },
        {
          "id": "line-walkway-to-pier-b",
          "camera_id": "cam-retail-walkway",
          "name": "To pier B",
          "counting_line": "LINESTRING(1500 200, 1560 1000)",
          "anchor": "POINT(1660 600)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-07-23T07:55:31.083Z",
          "updated": "2024-12-02T14:08:19.664Z"
        },
        {
          "id": "line-walkway-to-food-court",
          "camera_id": "cam-retail-walkway",
          "name": "To the food court",
          "counting_line": "LINESTRING(400 1000, 460 200)",
          "anchor": "POINT(300 600)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 15,
          "created": "2024-07-23T07:57:12.540Z",
          "updated": "2024-07-23T07:57:12.540Z"
        }
      ]
    }
  },
  {
    "file": "terminal-security.json",
    "data": {
      "cameras": [
        {
          "id": "cam-security-lanes-1-4"
        },
        {
          "id": "cam-security-exit"
        }
      ],
      "counting_lines": [
        {
          "id": "line-security-lane-1",
          "camera_id": "cam-security-lanes-1-4",
          "name": "Lane 1",
          "counting_line": "LINESTRING(180 620, 420 620)",
          "anchor": "POINT(300 500)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-08-19T04:30:00.000Z",
          "updated": "2025-04-02T07:12:51.336Z"
        },
        {
          "id": "line-security-lane-2",
          "camera_id": "cam-security-lanes-1-4",
          "name": "Lane 2",
          "counting_line": "LINESTRING(520 620, 760 620)",
          "anchor": "POINT(640 500)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-08-19T04:31:17.482Z",
          "updated": "2025-04-02T07:13:08.720Z"
        },
        {
          "id": "line-security-lane-3-fast-track",
          "camera_id": "cam-security-lanes-1-4",
          "name": "Fast track",
          "counting_line": "LINESTRING(900 626, 1140 614)",
          "anchor": "POINT(1020 500)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 15,
          "created": "2024-08-19T04:33:02.159Z",
          "updated": "2024-08-19T04:33:02.159Z"
        },
        {
          "id": "line-security-tray-return",
          "camera_id": "cam-security-lanes-1-4",
          "name": "Tray return",
          "counting_line": "LINESTRING(1560 300, 1620 560, 1740 820)",
          "anchor": "POINT(1760 520)",
          "coalesce_entries": false,
          "class": "shoulder bags",
          "max_age": 15,
          "created": "2024-12-09T10:58:44.203Z",
          "updated": "2025-01-13T08:26:37.981Z"
        },
        {
          "id": "line-security-exit-airside",
          "camera_id": "cam-security-exit",
          "name": "Exit to airside",
          "counting_line": "LINESTRING(300 760, 860 700, 1420 712, 1700 780)",
          "anchor": "POINT(1000 580)",
          "coalesce_entries": true,
          "class": "person",
          "max_age": 30,
          "created": "2024-08-19T05:02:39.645Z",
          "updated": "2025-04-02T07:20:16.058Z"
        },
        {
          "id": "line-security-exit-roller-bags",
          "camera_id": "cam-security-exit",
          "name": "Roller bags leaving screening",
          "counting_line": "LINESTRING(300 960, 1700 960)",
          "anchor": "POINT(1000 840)",
          "coalesce_entries": true,
          "class": "roller bags",
          "max_age": 30,
          "created": "2024-10-01T12:44:21.790Z",
          "updated": "2024-10-01T12:44:21.790Z"
        }
      ]
    }
  }
]
