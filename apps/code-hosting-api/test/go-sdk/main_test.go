// The official Gitea Go SDK (code.gitea.io/sdk/gitea, vendored unchanged) against
// a running code-hosting-api: every SDK call for the operations the service
// implements, each in its own subtest so that one failure does not hide another.
//
// Prerequisites of a subtest (users, organizations, repositories, issues) are
// made with plain HTTP requests (the seed helpers below), never with another SDK
// call, so each subtest measures one SDK call.
//
// Environment: GITEA_URL (the service's root URL), GITEA_ADMIN_USER and
// GITEA_ADMIN_PASSWORD (a site administrator), GITEA_VERSION (what
// GET /api/v1/version must answer).
package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"code.gitea.io/sdk/gitea"
)

var (
	baseURL       = strings.TrimSuffix(os.Getenv("GITEA_URL"), "/")
	adminUser     = os.Getenv("GITEA_ADMIN_USER")
	adminPassword = os.Getenv("GITEA_ADMIN_PASSWORD")
	serverVersion = os.Getenv("GITEA_VERSION")
	counter       int64
)

const password = "sdk-password-123"

func TestMain(m *testing.M) {
	if baseURL == "" || adminUser == "" || adminPassword == "" {
		fmt.Fprintln(os.Stderr, "GITEA_URL, GITEA_ADMIN_USER and GITEA_ADMIN_PASSWORD are required")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// unique returns a fresh name: every subtest works on resources of its own.
func unique(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, atomic.AddInt64(&counter, 1))
}

// ---- seed helpers: plain HTTP, not the SDK ----

type seedAuth struct {
	user, password, token string
}

var admin = seedAuth{}

func init() { admin = seedAuth{user: adminUser, password: adminPassword} }

func raw(t *testing.T, as seedAuth, method, path string, body interface{}, want int) map[string]interface{} {
	t.Helper()
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, baseURL+"/api/v1"+path, reader)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if as.token != "" {
		req.Header.Set("Authorization", "token "+as.token)
	} else {
		req.SetBasicAuth(as.user, as.password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("seed %s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, data)
	}
	out := map[string]interface{}{}
	if len(data) > 0 && data[0] == '{' {
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// seedUser creates a user (as the site administrator) and returns its name.
func seedUser(t *testing.T) string {
	t.Helper()
	name := unique("sdk-user")
	raw(t, admin, "POST", "/admin/users", map[string]interface{}{
		"username": name, "email": name + "@example.com", "password": password, "must_change_password": false,
	}, 201)
	return name
}

func as(user string) seedAuth { return seedAuth{user: user, password: password} }

func seedOrg(t *testing.T, owner string) string {
	t.Helper()
	name := unique("sdk-org")
	raw(t, as(owner), "POST", "/orgs", map[string]interface{}{"username": name}, 201)
	return name
}

func seedRepo(t *testing.T, owner string) string {
	t.Helper()
	name := unique("sdk-repo")
	raw(t, as(owner), "POST", "/user/repos", map[string]interface{}{"name": name}, 201)
	return name
}

func seedIssue(t *testing.T, owner, repo, title string) int64 {
	t.Helper()
	issue := raw(t, as(owner), "POST", fmt.Sprintf("/repos/%s/%s/issues", owner, repo),
		map[string]interface{}{"title": title}, 201)
	return int64(issue["number"].(float64))
}

// ---- clients ----

func basicClient(t *testing.T, user, pass string, options ...gitea.ClientOption) *gitea.Client {
	t.Helper()
	client, err := gitea.NewClient(baseURL, append([]gitea.ClientOption{gitea.SetBasicAuth(user, pass)}, options...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return client
}

func adminClient(t *testing.T) *gitea.Client { return basicClient(t, adminUser, adminPassword) }

func userClient(t *testing.T, user string) *gitea.Client { return basicClient(t, user, password) }

func expectStatus(t *testing.T, resp *gitea.Response, want int) {
	t.Helper()
	if resp == nil {
		t.Fatalf("no response, want status %d", want)
	}
	if resp.StatusCode != want {
		t.Fatalf("status %d, want %d", resp.StatusCode, want)
	}
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func TestSDK(t *testing.T) {
	t.Run("NewClient/ServerVersion", func(t *testing.T) {
		client, err := gitea.NewClient(baseURL)
		must(t, "NewClient (anonymous, asks GET /api/v1/version)", err)
		version, resp, err := client.ServerVersion()
		must(t, "ServerVersion", err)
		expectStatus(t, resp, 200)
		if serverVersion != "" && version != serverVersion {
			t.Fatalf("version %q, want %q", version, serverVersion)
		}
		must(t, "CheckServerVersionConstraint", client.CheckServerVersionConstraint(">= 1.11.0"))
	})

	t.Run("NewClient/SetToken", func(t *testing.T) {
		user := seedUser(t)
		token := raw(t, as(user), "POST", "/users/"+user+"/tokens",
			map[string]interface{}{"name": "seed", "scopes": []string{"all"}}, 201)
		client, err := gitea.NewClient(baseURL, gitea.SetToken(token["sha1"].(string)))
		must(t, "NewClient", err)
		me, _, err := client.GetMyUserInfo()
		must(t, "GetMyUserInfo with the token", err)
		if me.UserName != user {
			t.Fatalf("token user %q, want %q", me.UserName, user)
		}
	})

	t.Run("AdminCreateUser", func(t *testing.T) {
		name := unique("sdk-created")
		mustChange := false
		user, resp, err := adminClient(t).AdminCreateUser(gitea.CreateUserOption{
			Username: name, Email: name + "@example.com", Password: password, MustChangePassword: &mustChange,
		})
		must(t, "AdminCreateUser", err)
		expectStatus(t, resp, 201)
		if user.UserName != name || user.Email != name+"@example.com" || user.ID == 0 {
			t.Fatalf("created user %+v", user)
		}
		me, _, err := userClient(t, name).GetMyUserInfo()
		must(t, "the new user signs in with its password", err)
		if me.UserName != name {
			t.Fatalf("signed in as %q", me.UserName)
		}
	})

	t.Run("AdminCreateUser/Visibility", func(t *testing.T) {
		name := unique("sdk-limited")
		visibility := gitea.VisibleTypeLimited
		user, resp, err := adminClient(t).AdminCreateUser(gitea.CreateUserOption{
			Username: name, Email: name + "@example.com", Password: password, Visibility: &visibility,
		})
		must(t, "AdminCreateUser", err)
		expectStatus(t, resp, 201)
		if user.UserName != name {
			t.Fatalf("created user %+v", user)
		}
	})

	t.Run("AdminEditUser", func(t *testing.T) {
		name := seedUser(t)
		allow := false
		resp, err := adminClient(t).AdminEditUser(name, gitea.EditUserOption{LoginName: name, AllowCreateOrganization: &allow})
		must(t, "AdminEditUser", err)
		expectStatus(t, resp, 200)
		_, resp, err = userClient(t, name).CreateOrg(gitea.CreateOrgOption{Name: unique("sdk-refused")})
		if err == nil || resp == nil || resp.StatusCode != 403 {
			t.Fatalf("a user without allow_create_organization created an organization: %v", err)
		}
	})

	t.Run("GetMyUserInfo", func(t *testing.T) {
		name := seedUser(t)
		me, resp, err := userClient(t, name).GetMyUserInfo()
		must(t, "GetMyUserInfo", err)
		expectStatus(t, resp, 200)
		if me.UserName != name || me.IsAdmin {
			t.Fatalf("me %+v", me)
		}
	})

	t.Run("GetMyUserInfo/Anonymous", func(t *testing.T) {
		client, err := gitea.NewClient(baseURL)
		must(t, "NewClient", err)
		_, resp, err := client.GetMyUserInfo()
		if err == nil || err.Error() != "token is required" {
			t.Fatalf("error %v, want Gitea's message \"token is required\"", err)
		}
		expectStatus(t, resp, 401)
	})

	t.Run("GetUserInfo", func(t *testing.T) {
		name := seedUser(t)
		user, resp, err := adminClient(t).GetUserInfo(name)
		must(t, "GetUserInfo", err)
		expectStatus(t, resp, 200)
		if user.UserName != name || user.ID == 0 {
			t.Fatalf("user %+v", user)
		}
	})

	t.Run("SetSudo", func(t *testing.T) {
		name := seedUser(t)
		me, _, err := basicClient(t, adminUser, adminPassword, gitea.SetSudo(name)).GetMyUserInfo()
		must(t, "GetMyUserInfo with Sudo", err)
		if me.UserName != name {
			t.Fatalf("sudo user %q, want %q", me.UserName, name)
		}
	})

	t.Run("CreateAccessToken", func(t *testing.T) {
		name := seedUser(t)
		token, resp, err := userClient(t, name).CreateAccessToken(gitea.CreateAccessTokenOption{
			Name:   "sdk",
			Scopes: []gitea.AccessTokenScope{"write:organization", "write:repository", "read:user"},
		})
		must(t, "CreateAccessToken", err)
		expectStatus(t, resp, 201)
		if token.ID == 0 || token.Token == "" || token.Name != "sdk" {
			t.Fatalf("token %+v", token)
		}
		client, err := gitea.NewClient(baseURL, gitea.SetToken(token.Token))
		must(t, "NewClient with the token", err)
		me, _, err := client.GetMyUserInfo()
		must(t, "GetMyUserInfo with the new token", err)
		if me.UserName != name {
			t.Fatalf("token belongs to %q", me.UserName)
		}
	})

	t.Run("CreateAccessToken/All", func(t *testing.T) {
		name := seedUser(t)
		token, _, err := userClient(t, name).CreateAccessToken(gitea.CreateAccessTokenOption{
			Name: "everything", Scopes: []gitea.AccessTokenScope{gitea.AccessTokenScopeAll},
		})
		must(t, "CreateAccessToken", err)
		client, err := gitea.NewClient(baseURL, gitea.SetToken(token.Token))
		must(t, "NewClient", err)
		_, _, err = client.CreateOrg(gitea.CreateOrgOption{Name: unique("sdk-token-org")})
		must(t, "CreateOrg with an all-scope token", err)
	})

	t.Run("ListAccessTokens", func(t *testing.T) {
		// As tea does before it creates its login token: every token, pagination off (Page -1).
		name := seedUser(t)
		created := raw(t, as(name), "POST", "/users/"+name+"/tokens",
			map[string]interface{}{"name": "listed", "scopes": []string{"read:user"}}, 201)
		tokens, resp, err := userClient(t, name).ListAccessTokens(gitea.ListAccessTokensOptions{ListOptions: gitea.ListOptions{Page: -1}})
		must(t, "ListAccessTokens", err)
		expectStatus(t, resp, 200)
		if len(tokens) != 1 || tokens[0].Name != "listed" || tokens[0].Token != "" ||
			tokens[0].TokenLastEight != created["sha1"].(string)[32:] || len(tokens[0].Scopes) != 1 {
			t.Fatalf("tokens %+v", tokens)
		}
	})

	t.Run("DeleteAccessToken/ByID", func(t *testing.T) {
		name := seedUser(t)
		created := raw(t, as(name), "POST", "/users/"+name+"/tokens",
			map[string]interface{}{"name": "by-id", "scopes": []string{"all"}}, 201)
		resp, err := userClient(t, name).DeleteAccessToken(int64(created["id"].(float64)))
		must(t, "DeleteAccessToken(int64)", err)
		expectStatus(t, resp, 204)
		// Skip NewClient's version request: the call under test is GetMyUserInfo.
		client, err := gitea.NewClient(baseURL, gitea.SetToken(created["sha1"].(string)), gitea.SetGiteaVersion(""))
		must(t, "NewClient", err)
		_, resp, err = client.GetMyUserInfo()
		if err == nil || resp == nil || resp.StatusCode != 401 {
			t.Fatalf("deleted token still accepted: %v", err)
		}
	})

	t.Run("DeleteAccessToken/ByName", func(t *testing.T) {
		name := seedUser(t)
		raw(t, as(name), "POST", "/users/"+name+"/tokens",
			map[string]interface{}{"name": "by-name", "scopes": []string{"all"}}, 201)
		resp, err := userClient(t, name).DeleteAccessToken("by-name")
		must(t, "DeleteAccessToken(string)", err)
		expectStatus(t, resp, 204)
	})

	t.Run("CreateOrg", func(t *testing.T) {
		owner := seedUser(t)
		name := unique("sdk-org")
		org, resp, err := userClient(t, owner).CreateOrg(gitea.CreateOrgOption{
			Name: name, FullName: "SDK Org", Description: "made by the Go SDK", Website: "https://example.com",
			Location: "Lisbon", Visibility: gitea.VisibleTypeLimited, RepoAdminChangeTeamAccess: true,
		})
		must(t, "CreateOrg", err)
		expectStatus(t, resp, 201)
		if org.UserName != name || org.FullName != "SDK Org" || org.Visibility != "limited" ||
			org.Location != "Lisbon" || org.Website != "https://example.com" || org.ID == 0 {
			t.Fatalf("org %+v", org)
		}
	})

	t.Run("CreateOrg/MinimalOptions", func(t *testing.T) {
		// Only the name: the SDK still sends every field, "" for the strings and the visibility.
		owner := seedUser(t)
		org, resp, err := userClient(t, owner).CreateOrg(gitea.CreateOrgOption{Name: unique("sdk-org")})
		must(t, "CreateOrg", err)
		expectStatus(t, resp, 201)
		if org.Visibility != "public" {
			t.Fatalf("visibility %q, want the default public", org.Visibility)
		}
	})

	t.Run("CreateOrg/InvalidName", func(t *testing.T) {
		owner := seedUser(t)
		_, resp, err := userClient(t, owner).CreateOrg(gitea.CreateOrgOption{Name: "bad..name"})
		if err == nil {
			t.Fatal("an invalid name was accepted")
		}
		expectStatus(t, resp, 422)
		if err.Error() == "" || strings.HasPrefix(err.Error(), "Unknown API Error") {
			t.Fatalf("error %q: the SDK reads Gitea's {\"message\"} body", err)
		}
	})

	t.Run("GetOrg", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		org, resp, err := userClient(t, owner).GetOrg(name)
		must(t, "GetOrg", err)
		expectStatus(t, resp, 200)
		if org.UserName != name || org.Visibility != "public" {
			t.Fatalf("org %+v", org)
		}
	})

	t.Run("GetOrg/NotFound", func(t *testing.T) {
		_, resp, err := adminClient(t).GetOrg(unique("sdk-missing"))
		if err == nil {
			t.Fatal("an unknown organization was found")
		}
		expectStatus(t, resp, 404)
		if strings.HasPrefix(err.Error(), "Unknown API Error") {
			t.Fatalf("error %q: the SDK reads Gitea's {\"message\"} body", err)
		}
	})

	t.Run("EditOrg", func(t *testing.T) {
		// EditOrgOption has no omitempty: the fields not set go out as "".
		owner := seedUser(t)
		name := unique("sdk-org")
		raw(t, as(owner), "POST", "/orgs", map[string]interface{}{
			"username": name, "full_name": "Before", "website": "https://before.example", "visibility": "limited",
		}, 201)
		resp, err := userClient(t, owner).EditOrg(name, gitea.EditOrgOption{Description: "edited by the SDK"})
		must(t, "EditOrg", err)
		expectStatus(t, resp, 200)
		org := raw(t, as(owner), "GET", "/orgs/"+name, nil, 200)
		if org["description"] != "edited by the SDK" {
			t.Fatalf("description %v", org["description"])
		}
		if org["full_name"] != "Before" || org["website"] != "https://before.example" || org["visibility"] != "limited" {
			t.Fatalf("fields the SDK sent as \"\" changed: %v", org)
		}
	})

	t.Run("EditOrg/Visibility", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		resp, err := userClient(t, owner).EditOrg(name, gitea.EditOrgOption{
			FullName: "Full", Description: "d", Website: "https://example.org", Location: "here",
			Visibility: gitea.VisibleTypePrivate,
		})
		must(t, "EditOrg", err)
		expectStatus(t, resp, 200)
		org := raw(t, as(owner), "GET", "/orgs/"+name, nil, 200)
		if org["visibility"] != "private" || org["full_name"] != "Full" || org["location"] != "here" {
			t.Fatalf("org %v", org)
		}
	})

	t.Run("DeleteOrg", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		resp, err := userClient(t, owner).DeleteOrg(name)
		must(t, "DeleteOrg", err)
		expectStatus(t, resp, 204)
		raw(t, as(owner), "GET", "/orgs/"+name, nil, 404)
	})

	t.Run("DeleteOrg/WithRepositories", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		raw(t, as(owner), "POST", "/orgs/"+name+"/repos", map[string]interface{}{"name": "kept"}, 201)
		resp, err := userClient(t, owner).DeleteOrg(name)
		if err == nil {
			t.Fatal("an organization with repositories was deleted")
		}
		expectStatus(t, resp, 409)
	})

	t.Run("ListMyOrgs/Pagination", func(t *testing.T) {
		owner := seedUser(t)
		names := []string{seedOrg(t, owner), seedOrg(t, owner), seedOrg(t, owner)}
		client := userClient(t, owner)
		first, resp, err := client.ListMyOrgs(gitea.ListOrgsOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 2}})
		must(t, "ListMyOrgs page 1", err)
		expectStatus(t, resp, 200)
		if len(first) != 2 || resp.NextPage != 2 || resp.LastPage != 2 || resp.PrevPage != 0 {
			t.Fatalf("page 1: %d orgs, next %d, last %d, prev %d", len(first), resp.NextPage, resp.LastPage, resp.PrevPage)
		}
		if resp.Header.Get("X-Total-Count") != "3" {
			t.Fatalf("X-Total-Count %q", resp.Header.Get("X-Total-Count"))
		}
		second, resp, err := client.ListMyOrgs(gitea.ListOrgsOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
		must(t, "ListMyOrgs page 2", err)
		if len(second) != 1 || resp.PrevPage != 1 || resp.FirstPage != 1 || resp.NextPage != 0 {
			t.Fatalf("page 2: %d orgs, prev %d, first %d, next %d", len(second), resp.PrevPage, resp.FirstPage, resp.NextPage)
		}
		seen := map[string]bool{}
		for _, org := range append(first, second...) {
			seen[org.UserName] = true
		}
		for _, name := range names {
			if !seen[name] {
				t.Fatalf("%s missing from the pages", name)
			}
		}
	})

	t.Run("ListMyOrgs/Unpaged", func(t *testing.T) {
		// Page -1: the SDK sends page=0&limit=0, which Gitea reads as its defaults.
		owner := seedUser(t)
		seedOrg(t, owner)
		orgs, resp, err := userClient(t, owner).ListMyOrgs(gitea.ListOrgsOptions{ListOptions: gitea.ListOptions{Page: -1}})
		must(t, "ListMyOrgs", err)
		expectStatus(t, resp, 200)
		if len(orgs) != 1 {
			t.Fatalf("%d orgs", len(orgs))
		}
	})

	t.Run("ListUserOrgs", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		orgs, resp, err := adminClient(t).ListUserOrgs(owner, gitea.ListOrgsOptions{})
		must(t, "ListUserOrgs", err)
		expectStatus(t, resp, 200)
		if len(orgs) != 1 || orgs[0].UserName != name {
			t.Fatalf("orgs %+v", orgs)
		}
		if resp.Header.Get("X-Total-Count") != "1" {
			t.Fatalf("X-Total-Count %q", resp.Header.Get("X-Total-Count"))
		}
	})

	t.Run("AdminListOrgs", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		raw(t, as(owner), "PATCH", "/orgs/"+name, map[string]interface{}{"visibility": "private"}, 200)
		client := adminClient(t)
		found := false
		for page := 1; page > 0; {
			orgs, resp, err := client.AdminListOrgs(gitea.AdminListOrgsOptions{ListOptions: gitea.ListOptions{Page: page, PageSize: 50}})
			must(t, "AdminListOrgs", err)
			expectStatus(t, resp, 200)
			for _, org := range orgs {
				found = found || org.UserName == name
			}
			page = resp.NextPage
		}
		if !found {
			t.Fatalf("the private organization %s is not in the site administrator's list", name)
		}
	})

	t.Run("AdminListOrgs/NotAdmin", func(t *testing.T) {
		user := seedUser(t)
		_, resp, err := userClient(t, user).AdminListOrgs(gitea.AdminListOrgsOptions{})
		if err == nil {
			t.Fatal("a user who is not a site administrator listed every organization")
		}
		expectStatus(t, resp, 403)
	})

	t.Run("GetOrgPermissions", func(t *testing.T) {
		owner := seedUser(t)
		name := seedOrg(t, owner)
		perms, resp, err := userClient(t, owner).GetOrgPermissions(name, owner)
		must(t, "GetOrgPermissions", err)
		expectStatus(t, resp, 200)
		if !perms.IsOwner || !perms.IsAdmin || !perms.CanWrite || !perms.CanRead || !perms.CanCreateRepository {
			t.Fatalf("owner's permissions %+v", perms)
		}
	})

	t.Run("CreateTeam", func(t *testing.T) {
		owner := seedUser(t)
		org := seedOrg(t, owner)
		team, resp, err := userClient(t, owner).CreateTeam(org, gitea.CreateTeamOption{
			Name: "writers", Description: "can write", Permission: gitea.AccessModeWrite, CanCreateOrgRepo: true,
		})
		must(t, "CreateTeam", err)
		expectStatus(t, resp, 201)
		if team.ID == 0 || team.Name != "writers" || team.Permission != gitea.AccessModeWrite || !team.CanCreateOrgRepo {
			t.Fatalf("team %+v", team)
		}
	})

	t.Run("CreateTeam/WithUnits", func(t *testing.T) {
		owner := seedUser(t)
		org := seedOrg(t, owner)
		team, resp, err := userClient(t, owner).CreateTeam(org, gitea.CreateTeamOption{
			Name: "readers", Permission: gitea.AccessModeRead,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitIssues, gitea.RepoUnitPulls},
		})
		must(t, "CreateTeam", err)
		expectStatus(t, resp, 201)
		if team.Permission != gitea.AccessModeRead {
			t.Fatalf("team %+v", team)
		}
	})

	t.Run("ListOrgTeams", func(t *testing.T) {
		owner := seedUser(t)
		org := seedOrg(t, owner)
		raw(t, as(owner), "POST", "/orgs/"+org+"/teams", map[string]interface{}{"name": "extra", "permission": "read"}, 201)
		teams, resp, err := userClient(t, owner).ListOrgTeams(org, gitea.ListTeamsOptions{})
		must(t, "ListOrgTeams", err)
		expectStatus(t, resp, 200)
		names := []string{}
		for _, team := range teams {
			names = append(names, team.Name)
		}
		if len(teams) != 2 || !contains(names, "Owners") || !contains(names, "extra") {
			t.Fatalf("teams %v", names)
		}
		if resp.Header.Get("X-Total-Count") != "2" {
			t.Fatalf("X-Total-Count %q", resp.Header.Get("X-Total-Count"))
		}
	})

	t.Run("AddTeamMember", func(t *testing.T) {
		owner, member := seedUser(t), seedUser(t)
		org := seedOrg(t, owner)
		team := raw(t, as(owner), "POST", "/orgs/"+org+"/teams", map[string]interface{}{"name": "w", "permission": "write"}, 201)
		resp, err := userClient(t, owner).AddTeamMember(int64(team["id"].(float64)), member)
		must(t, "AddTeamMember", err)
		expectStatus(t, resp, 204)
		perms := raw(t, as(member), "GET", "/users/"+member+"/orgs/"+org+"/permissions", nil, 200)
		if perms["can_write"] != true || perms["is_owner"] != false {
			t.Fatalf("member's permissions %v", perms)
		}
	})

	t.Run("RemoveTeamMember", func(t *testing.T) {
		owner, member := seedUser(t), seedUser(t)
		org := seedOrg(t, owner)
		team := raw(t, as(owner), "POST", "/orgs/"+org+"/teams", map[string]interface{}{"name": "w", "permission": "write"}, 201)
		id := int64(team["id"].(float64))
		raw(t, as(owner), "PUT", fmt.Sprintf("/teams/%d/members/%s", id, member), nil, 204)
		resp, err := userClient(t, owner).RemoveTeamMember(id, member)
		must(t, "RemoveTeamMember", err)
		expectStatus(t, resp, 204)
		orgs := raw(t, admin, "GET", "/users/"+member+"/orgs/"+org+"/permissions", nil, 200)
		if orgs["can_write"] != false {
			t.Fatalf("removed member's permissions %v", orgs)
		}
	})

	t.Run("CreateRepo", func(t *testing.T) {
		owner := seedUser(t)
		name := unique("sdk-repo")
		repo, resp, err := userClient(t, owner).CreateRepo(gitea.CreateRepoOption{
			Name: name, Description: "made by the SDK", Private: true,
		})
		must(t, "CreateRepo", err)
		expectStatus(t, resp, 201)
		if repo.Name != name || repo.FullName != owner+"/"+name || !repo.Private || repo.Owner == nil || repo.Owner.UserName != owner {
			t.Fatalf("repo %+v", repo)
		}
	})

	t.Run("CreateOrgRepo", func(t *testing.T) {
		// The SDK posts to Gitea's older route POST /org/{org}/repos.
		owner := seedUser(t)
		org := seedOrg(t, owner)
		name := unique("sdk-repo")
		repo, resp, err := userClient(t, owner).CreateOrgRepo(org, gitea.CreateRepoOption{Name: name})
		must(t, "CreateOrgRepo", err)
		expectStatus(t, resp, 201)
		if repo.FullName != org+"/"+name {
			t.Fatalf("repo %+v", repo)
		}
	})

	t.Run("GetRepo", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		repo, resp, err := adminClient(t).GetRepo(owner, name)
		must(t, "GetRepo", err)
		expectStatus(t, resp, 200)
		if repo.Name != name || repo.Owner == nil || repo.Owner.UserName != owner || repo.Archived {
			t.Fatalf("repo %+v", repo)
		}
	})

	t.Run("EditRepo", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		description, archived, private := "edited by the SDK", true, true
		repo, resp, err := userClient(t, owner).EditRepo(owner, name, gitea.EditRepoOption{
			Description: &description, Archived: &archived, Private: &private,
		})
		must(t, "EditRepo", err)
		expectStatus(t, resp, 200)
		if repo.Description != description || !repo.Archived || !repo.Private {
			t.Fatalf("repo %+v", repo)
		}
	})

	t.Run("DeleteRepo", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		resp, err := userClient(t, owner).DeleteRepo(owner, name)
		must(t, "DeleteRepo", err)
		expectStatus(t, resp, 204)
		raw(t, as(owner), "GET", "/repos/"+owner+"/"+name, nil, 404)
	})

	t.Run("AddCollaborator", func(t *testing.T) {
		owner, collaborator := seedUser(t), seedUser(t)
		name := seedRepo(t, owner)
		raw(t, as(owner), "PATCH", "/repos/"+owner+"/"+name, map[string]interface{}{"private": true}, 200)
		write := gitea.AccessModeWrite
		resp, err := userClient(t, owner).AddCollaborator(owner, name, collaborator, gitea.AddCollaboratorOption{Permission: &write})
		must(t, "AddCollaborator", err)
		expectStatus(t, resp, 204)
		raw(t, as(collaborator), "GET", "/repos/"+owner+"/"+name, nil, 200)
	})

	t.Run("AddCollaborator/DefaultPermission", func(t *testing.T) {
		// No permission: the SDK sends {"permission":null}.
		owner, collaborator := seedUser(t), seedUser(t)
		name := seedRepo(t, owner)
		resp, err := userClient(t, owner).AddCollaborator(owner, name, collaborator, gitea.AddCollaboratorOption{})
		must(t, "AddCollaborator", err)
		expectStatus(t, resp, 204)
	})

	t.Run("CreateIssue", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		issue, resp, err := userClient(t, owner).CreateIssue(owner, name, gitea.CreateIssueOption{Title: "from the SDK", Body: "body"})
		must(t, "CreateIssue", err)
		expectStatus(t, resp, 201)
		if issue.Index != 1 || issue.Title != "from the SDK" || issue.Body != "body" || issue.State != gitea.StateOpen ||
			issue.Poster == nil || issue.Poster.UserName != owner {
			t.Fatalf("issue %+v", issue)
		}
	})

	t.Run("CreateIssue/Closed", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		issue, _, err := userClient(t, owner).CreateIssue(owner, name, gitea.CreateIssueOption{Title: "closed at birth", Closed: true})
		must(t, "CreateIssue", err)
		if issue.State != gitea.StateClosed {
			t.Fatalf("state %q", issue.State)
		}
	})

	t.Run("ListRepoIssues/Pagination", func(t *testing.T) {
		// The SDK always sends type= (empty when not set).
		owner := seedUser(t)
		name := seedRepo(t, owner)
		for i := 1; i <= 3; i++ {
			seedIssue(t, owner, name, fmt.Sprintf("issue %d", i))
		}
		client := userClient(t, owner)
		issues, resp, err := client.ListRepoIssues(owner, name, gitea.ListIssueOption{ListOptions: gitea.ListOptions{Page: 1, PageSize: 2}})
		must(t, "ListRepoIssues", err)
		expectStatus(t, resp, 200)
		if len(issues) != 2 || resp.NextPage != 2 || resp.LastPage != 2 || resp.Header.Get("X-Total-Count") != "3" {
			t.Fatalf("%d issues, next %d, last %d, total %q", len(issues), resp.NextPage, resp.LastPage, resp.Header.Get("X-Total-Count"))
		}
	})

	t.Run("ListRepoIssues/StateAndType", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		open := seedIssue(t, owner, name, "open one")
		closed := seedIssue(t, owner, name, "closed one")
		raw(t, as(owner), "PATCH", fmt.Sprintf("/repos/%s/%s/issues/%d", owner, name, closed), map[string]interface{}{"state": "closed"}, 201)
		raw(t, as(owner), "POST", fmt.Sprintf("/repos/%s/%s/pulls", owner, name), map[string]interface{}{"title": "a pull", "head": "f", "base": "main"}, 201)
		client := userClient(t, owner)
		issues, _, err := client.ListRepoIssues(owner, name, gitea.ListIssueOption{State: gitea.StateClosed, Type: gitea.IssueTypeIssue})
		must(t, "ListRepoIssues closed issues", err)
		if len(issues) != 1 || issues[0].Index != closed {
			t.Fatalf("closed issues %+v", issues)
		}
		issues, _, err = client.ListRepoIssues(owner, name, gitea.ListIssueOption{State: gitea.StateOpen, Type: gitea.IssueTypeIssue})
		must(t, "ListRepoIssues open issues", err)
		if len(issues) != 1 || issues[0].Index != open {
			t.Fatalf("open issues %+v", issues)
		}
		issues, _, err = client.ListRepoIssues(owner, name, gitea.ListIssueOption{State: gitea.StateAll, Type: gitea.IssueTypePull})
		must(t, "ListRepoIssues pulls", err)
		if len(issues) != 1 || issues[0].PullRequest == nil {
			t.Fatalf("pulls %+v", issues)
		}
	})

	t.Run("GetIssue", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		index := seedIssue(t, owner, name, "get me")
		issue, resp, err := adminClient(t).GetIssue(owner, name, index)
		must(t, "GetIssue", err)
		expectStatus(t, resp, 200)
		if issue.Index != index || issue.Title != "get me" || issue.PullRequest != nil ||
			issue.Repository == nil || issue.Repository.Name != name || issue.Repository.Owner != owner {
			t.Fatalf("issue %+v (repository %+v)", issue, issue.Repository)
		}
	})

	t.Run("EditIssue", func(t *testing.T) {
		// Title left empty: the SDK sends "title":"" and nulls for the pointers it does not set.
		owner := seedUser(t)
		name := seedRepo(t, owner)
		index := seedIssue(t, owner, name, "keep my title")
		closed := gitea.StateClosed
		issue, resp, err := userClient(t, owner).EditIssue(owner, name, index, gitea.EditIssueOption{State: &closed})
		must(t, "EditIssue", err)
		expectStatus(t, resp, 201)
		if issue.State != gitea.StateClosed || issue.Title != "keep my title" || issue.Closed == nil {
			t.Fatalf("issue %+v", issue)
		}
	})

	t.Run("EditIssue/TitleAndBody", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		index := seedIssue(t, owner, name, "old title")
		body := "new body"
		open := gitea.StateOpen
		issue, _, err := userClient(t, owner).EditIssue(owner, name, index, gitea.EditIssueOption{Title: "new title", Body: &body, State: &open})
		must(t, "EditIssue", err)
		if issue.Title != "new title" || issue.Body != "new body" || issue.State != gitea.StateOpen {
			t.Fatalf("issue %+v", issue)
		}
	})

	t.Run("CreatePullRequest", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		seedIssue(t, owner, name, "an issue first")
		pr, resp, err := userClient(t, owner).CreatePullRequest(owner, name, gitea.CreatePullRequestOption{
			Head: "feature", Base: "main", Title: "from the SDK", Body: "please",
		})
		must(t, "CreatePullRequest", err)
		expectStatus(t, resp, 201)
		if pr.Index != 2 || pr.Title != "from the SDK" || pr.State != gitea.StateOpen || pr.Head == nil || pr.Head.Ref != "feature" ||
			pr.Base == nil || pr.Base.Ref != "main" {
			t.Fatalf("pull request %+v", pr)
		}
		issue := raw(t, as(owner), "GET", fmt.Sprintf("/repos/%s/%s/issues/2", owner, name), nil, 200)
		if issue["pull_request"] == nil {
			t.Fatalf("issue 2 is not a pull request: %v", issue)
		}
	})

	// Issue attachments: the SDK has no call for them. Its release-attachment calls send
	// the same requests to .../releases/{id}/assets; these subtests send exactly those
	// requests, built the way the SDK builds them, to .../issues/{index}/assets.
	t.Run("IssueAttachments/CreateLikeCreateReleaseAttachment", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		index := seedIssue(t, owner, name, "with a file")
		token := seedToken(t, owner)
		attachment, status := createAttachmentLikeSDK(t, token, fmt.Sprintf("/repos/%s/%s/issues/%d/assets", owner, name, index),
			"crash.log", []byte("panic: anvil dropped\n"))
		if status != 201 {
			t.Fatalf("status %d: %+v", status, attachment)
		}
		if attachment.Name != "crash.log" || attachment.Size != 21 || attachment.UUID == "" ||
			!strings.HasPrefix(attachment.DownloadURL, "http") {
			t.Fatalf("attachment %+v", attachment)
		}
		download, err := http.Get(attachment.DownloadURL)
		must(t, "download", err)
		defer download.Body.Close()
		data, _ := io.ReadAll(download.Body)
		if download.StatusCode != 200 || string(data) != "panic: anvil dropped\n" {
			t.Fatalf("download %d %q", download.StatusCode, data)
		}
	})

	t.Run("IssueAttachments/ListGetEditDeleteLikeReleaseAttachmentCalls", func(t *testing.T) {
		owner := seedUser(t)
		name := seedRepo(t, owner)
		index := seedIssue(t, owner, name, "with files")
		token := seedToken(t, owner)
		base := fmt.Sprintf("/repos/%s/%s/issues/%d/assets", owner, name, index)
		created, status := createAttachmentLikeSDK(t, token, base, "notes.txt", []byte("notes"))
		if status != 201 {
			t.Fatalf("create: status %d", status)
		}
		// ListReleaseAttachments: GET with ?limit=&page= (ListOptions.getURLQuery), no body.
		var list []*gitea.Attachment
		query := url.Values{"page": {"1"}, "limit": {"10"}}
		if status := sdkLikeJSON(t, token, "GET", base+"?"+query.Encode(), nil, &list); status != 200 || len(list) != 1 || list[0].ID != created.ID {
			t.Fatalf("list: status %d, %+v", status, list)
		}
		// GetReleaseAttachment: GET, no body.
		var got gitea.Attachment
		if status := sdkLikeJSON(t, token, "GET", fmt.Sprintf("%s/%d", base, created.ID), nil, &got); status != 200 || got.Name != "notes.txt" {
			t.Fatalf("get: status %d, %+v", status, got)
		}
		// EditReleaseAttachment: PATCH with EditAttachmentOptions as JSON.
		var edited gitea.Attachment
		if status := sdkLikeJSON(t, token, "PATCH", fmt.Sprintf("%s/%d", base, created.ID),
			gitea.EditAttachmentOptions{Name: "renamed.txt"}, &edited); status != 201 || edited.Name != "renamed.txt" {
			t.Fatalf("edit: status %d, %+v", status, edited)
		}
		// DeleteReleaseAttachment: DELETE, no body.
		if status := sdkLikeJSON(t, token, "DELETE", fmt.Sprintf("%s/%d", base, created.ID), nil, nil); status != 204 {
			t.Fatalf("delete: status %d", status)
		}
	})
}

func contains(list []string, value string) bool {
	for _, item := range list {
		if item == value {
			return true
		}
	}
	return false
}

func seedToken(t *testing.T, user string) string {
	t.Helper()
	token := raw(t, as(user), "POST", "/users/"+user+"/tokens",
		map[string]interface{}{"name": unique("attachments"), "scopes": []string{"all"}}, 201)
	return token["sha1"].(string)
}

// createAttachmentLikeSDK sends the request gitea.(*Client).CreateReleaseAttachment sends
// (attachment.go): a multipart body built with multipart.NewWriter, the file in a part
// made by CreateFormFile("attachment", filename), Content-Type from FormDataContentType,
// and the client's "Authorization: token …" header (client.go doRequest).
func createAttachmentLikeSDK(t *testing.T, token, path, filename string, content []byte) (*gitea.Attachment, int) {
	t.Helper()
	body := new(bytes.Buffer)
	writer := multipart.NewWriter(body)
	part, err := writer.CreateFormFile("attachment", filename)
	must(t, "CreateFormFile", err)
	_, err = io.Copy(part, bytes.NewReader(content))
	must(t, "copy", err)
	must(t, "close", writer.Close())
	req, err := http.NewRequest("POST", baseURL+"/api/v1"+path, body)
	must(t, "request", err)
	req.Header.Set("Authorization", "token "+token)
	req.Header["Content-Type"] = []string{writer.FormDataContentType()}
	resp, err := http.DefaultClient.Do(req)
	must(t, "POST", err)
	defer resp.Body.Close()
	attachment := new(gitea.Attachment)
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 == 2 {
		must(t, "decode "+string(data), json.Unmarshal(data, attachment))
	} else {
		t.Logf("body: %s", data)
	}
	return attachment, resp.StatusCode
}

// sdkLikeJSON sends a request as the SDK's doRequest does: "Authorization: token …", and
// for a body, JSON with the SDK's jsonHeader (content-type: application/json).
func sdkLikeJSON(t *testing.T, token, method, path string, body interface{}, out interface{}) int {
	t.Helper()
	var reader io.Reader
	header := http.Header{}
	if body != nil {
		data, err := json.Marshal(body)
		must(t, "marshal", err)
		reader = bytes.NewReader(data)
		header["content-type"] = []string{"application/json"}
	}
	req, err := http.NewRequest(method, baseURL+"/api/v1"+path, reader)
	must(t, "request", err)
	req.Header.Set("Authorization", "token "+token)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, method, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode/100 == 2 {
		must(t, "decode "+string(data), json.Unmarshal(data, out))
	} else if resp.StatusCode/100 != 2 {
		t.Logf("body: %s", data)
	}
	return resp.StatusCode
}
